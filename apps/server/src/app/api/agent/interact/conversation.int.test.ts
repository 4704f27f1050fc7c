// The conversation through the real interact route, the real Gemini SDK and a loopback Gemini:
// a question pauses the task, the answer continues the same task in the same session, and the
// message history (the question and the answer) reaches context analysis' prompt.
import { InteractResponse } from '@tandem/contracts';
import {
  nodeOfSystem,
  startFakeHttpServer,
  type FakeHttpServer,
  type RecordedRequest,
} from '@tandem/agent/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../../test/harness';
import { POST } from './route';

const PAGE = 'https://emr.example/patients/new';
const tree = [
  { i: '10', r: 'inp', n: 'Date of birth' },
  { i: '12', r: 'btn', n: 'Save' },
];

interface GeminiBody {
  systemInstruction?: { parts: { text?: string }[] };
  contents: { parts: { text?: string }[] }[];
}
const systemOf = (r: RecordedRequest) =>
  (r.body as GeminiBody).systemInstruction?.parts[0]?.text ?? '';
/** Every system prompt opens with the same preamble: the node is read from what follows it. */
const isAnalysis = (r: RecordedRequest) =>
  ['context_analysis', 'context_planning'].includes(nodeOfSystem(systemOf(r)));
const promptOf = (r: RecordedRequest) =>
  (r.body as GeminiBody).contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');

/** Answers like a model would: ask for the date of birth until the conversation holds it. */
function model(r: RecordedRequest): unknown {
  const system = systemOf(r);
  const node = nodeOfSystem(system);
  const prompt = promptOf(r);
  if (isAnalysis(r)) {
    const known = prompt.includes('2 April 1990');
    return {
      source: known ? 'MEMORY' : 'ASK_USER',
      requiredSources: [known ? 'MEMORY' : 'ASK_USER'],
      missingInformation: known ? [] : ['date of birth'],
      searchQuery: null,
      reasoning: known ? 'The user gave it.' : 'Only the user knows it.',
    };
  }
  if (node === 'planning')
    return {
      goal: 'Add Jas',
      steps: [{ description: 'Type 1990-04-02 into Date of birth', refinable: true }],
    };
  if (node === 'outcome_prediction')
    return { description: 'The field holds the date', urlShouldChange: false, nextGoal: null };
  throw new Error(`unexpected model call: ${node}: ${system.slice(0, 60)}`);
}

let gemini: FakeHttpServer;
let runtime: Runtime;
let key: string;

beforeEach(async () => {
  gemini = await startFakeHttpServer((r) => ({
    body: {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: JSON.stringify(model(r)) }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
      modelVersion: 'gemini-2.5-flash',
    },
  }));
  runtime = await testRuntime({
    GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
    GEMINI_BASE_URL: gemini.url,
    LLM_MAX_RETRIES: '0',
  });
  ({ key } = await tenantWithKey(runtime.store));
});
afterEach(async () => {
  await runtime.close();
  await gemini.close();
});

const interact = async (body: Record<string, unknown>) => {
  const res = await POST.withRuntime(runtime)(
    request('/api/agent/interact', {
      method: 'POST',
      key,
      body: { url: PAGE, interactiveTree: tree, ...body },
    }),
  );
  expect(res.status).toBe(200);
  return InteractResponse.parse(await res.json());
};

describe('POST /api/agent/interact: a question and its answer', () => {
  it('the answer continues the same task and session, and context analysis reads it', async () => {
    const asked = await interact({ query: 'Add the patient Jas with her date of birth' });
    if (!asked.needsUserInput || !asked.taskId)
      throw new Error('expected a question with its task');
    expect(asked.message).toBe('I need the following information to continue: date of birth.');

    const next = await interact({
      taskId: asked.taskId,
      sessionId: asked.sessionId,
      answer: '2 April 1990',
    });
    expect(next).toMatchObject({
      taskId: asked.taskId,
      sessionId: asked.sessionId,
      action: 'setValue("10", "1990-04-02")',
      actionSummary: 'Typed “1990-04-02” into Date of birth',
    });

    const analyses = gemini.requests.filter(isAnalysis);
    expect(analyses).toHaveLength(2);
    const second = promptOf(analyses[1] as RecordedRequest);
    expect(second).toContain('User: Add the patient Jas with her date of birth');
    expect(second).toContain(
      'Agent asked: I need the following information to continue: date of birth.',
    );
    expect(second).toContain('User: 2 April 1990');
    expect(second).toContain('The user just answered your question');
  });
});
