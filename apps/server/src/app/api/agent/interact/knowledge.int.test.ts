// The end-to-end check of RAG: a document uploaded through POST /api/knowledge/ingest
// reaches the planner of a later interact request, and the plan (and so the action) uses the
// fact only that document holds. The model is scripted at the LLM port: its plan is computed
// from the prompt it is given, so it can only use the fact if retrieval put it there.
import { InteractResponse } from '@tandem/contracts';
import { createScriptedLlm, pageContextStep, type ScriptedStep } from '@tandem/agent/testing';
import { createLibsqlStore } from '@tandem/store';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseEnv } from '../../../../env';
import { createRuntime, type Runtime } from '../../../../server/runtime';
import { request, tenantWithKey } from '../../../../test/harness';
import { POST as ingest } from '../../knowledge/ingest/route';
import { POST as interact } from './route';

const HANDBOOK = `# Front desk handbook

## Registering patients

Every new patient of the Riverside clinic is registered with the clinic code RV-2291 in the Clinic code field.

## Opening hours

The front desk opens at 7:30 on weekdays.
`;

const planFromPrompt = (prompt: string) => {
  const code = /clinic code (RV-\d+)/.exec(prompt)?.[1];
  return {
    goal: 'register the new patient with the clinic code',
    steps: [
      {
        description: code ? `Type ${code} into Clinic code` : 'Ask the user for the clinic code',
        refinable: true,
      },
    ],
  };
};

const steps: ScriptedStep[] = [
  pageContextStep('the form is on the page; the code is organisation knowledge'),
  { node: 'planning', output: (req) => planFromPrompt(req.prompt) },
];

let runtime: Runtime;
let llm: ReturnType<typeof createScriptedLlm>;
beforeEach(async () => {
  llm = createScriptedLlm(steps);
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
  runtime = await createRuntime({
    env,
    store: await createLibsqlStore({ url: ':memory:' }),
    llm,
  });
});
afterEach(() => runtime.store.close());

it('plans with a fact from an uploaded document', async () => {
  const { key } = await tenantWithKey(runtime.store);
  const form = new FormData();
  form.set('file', new File([HANDBOOK], 'front-desk.md', { type: 'text/markdown' }));
  form.set('domain', 'emr.example');
  const uploaded = await ingest.withRuntime(runtime)(
    new Request('http://127.0.0.1:3000/api/knowledge/ingest', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  );
  expect(uploaded.status).toBe(201);

  const res = await interact.withRuntime(runtime)(
    request('/api/agent/interact', {
      method: 'POST',
      key,
      body: {
        url: 'https://emr.example/patients/new',
        query: 'register the new patient with our clinic code',
        interactiveTree: [
          { i: '1', r: 'inp', n: 'Name', v: '' },
          { i: '2', r: 'inp', n: 'Clinic code', v: '' },
          { i: '3', r: 'btn', n: 'Save' },
        ],
      },
    }),
  );
  expect(res.status).toBe(200);
  const body = InteractResponse.parse(await res.json());
  if (body.needsUserInput) throw new Error('the agent asked instead of using its knowledge');
  expect(body.action).toBe('setValue("2", "RV-2291")');
  const planning = llm.calls.find((c) => c.node === 'planning')?.prompt ?? '';
  expect(planning).toMatch(/Organisation knowledge:[\s\S]*clinic code RV-2291/);
  // Only the section that answers the question was retrieved for it, not the whole handbook.
  expect(planning).not.toContain('opens at 7:30');
});
