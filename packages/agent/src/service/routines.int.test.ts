// Routines: a task that completes with every step verified leaves a routine in the
// store, with the goal's values as parameters; the same run again adds no version; a task with
// a step that was not verified leaves none.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@tandem/observability';
import { saveRoutine } from '../routines/save';
import type { InteractStateType } from '../state';
import { createTestAgent, pageContextStep, pageRequest, type TestAgent } from '../testing/harness';

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.store.close();
  agent = undefined;
});

const URL = 'https://forms.example/contact';
const form: SemanticNodeV3[] = [
  { i: 'f1', r: 'inp', n: 'First name', v: '' },
  { i: 'f2', r: 'inp', n: 'Last name', v: '' },
  { i: 'f3', r: 'inp', n: 'Email', v: '' },
  { i: 'go', r: 'btn', n: 'Submit' },
];
const thanks: SemanticNodeV3[] = [{ i: 't', r: 'link', n: 'Back to the form' }];

const plan = {
  node: 'planning' as const,
  output: {
    goal: 'Send the contact form',
    steps: [
      { description: 'Fill in the contact form fields', refinable: false },
      { description: "Click 'Submit'", refinable: true },
    ],
  },
};
const sentOk = {
  node: 'verification' as const,
  output: {
    action_succeeded: true,
    task_completed: true,
    confidence: 0.95,
    reason: 'the thank-you page is shown',
  },
};

/** The request after the form's chain of four: the thank-you page, every action run. */
const thanked = (test: TestAgent, r1: { taskId: string; sessionId: string }) =>
  test.act(
    pageRequest('https://forms.example/thanks', thanks, {
      taskId: r1.taskId,
      sessionId: r1.sessionId,
      lastActionStatus: 'success',
      lastExecutedActionIndex: 3,
    }),
  );

/** One run of the form: the fields and Submit as one chain, then the thank-you page. */
async function sendForm(test: TestAgent, person: [string, string, string], withModel = true) {
  const [first, last, email] = person;
  const chain = [
    { action: `setValue("f1", "${first}")`, description: 'First name' },
    { action: `setValue("f2", "${last}")`, description: 'Last name' },
    { action: `setValue("f3", "${email}")`, description: 'Email' },
    { action: 'click("go")', description: 'Send the form' },
  ];
  if (withModel)
    test.scripted?.push(
      pageContextStep('The goal states the name and email.'),
      plan,
      {
        node: 'action_generation',
        output: { thought: 'Fill and send', action: chain[0]?.action, chain, confidence: 0.95 },
      },
      sentOk,
      { node: 'finalize', output: { answer: 'The contact form was sent.' } },
    );
  const r1 = await test.act(
    pageRequest(URL, form, { query: `Send the contact form as ${first} ${last}, ${email}` }),
  );
  expect(r1.actions).toHaveLength(4);
  const r2 = await thanked(test, r1);
  expect(r2.status).toBe('completed');
  return r1.taskId;
}

describe('routines from verified runs', () => {
  it('a completed form task leaves a routine with the goal values as parameters', async () => {
    agent = await createTestAgent({ steps: [] });
    const { tenantId } = agent.caller;
    const taskId = await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);

    const routine = await agent.store.routines.findLatest(tenantId, {
      site: 'forms.example',
      goalTemplate: 'Send the contact form as {firstName} {lastName}, {email}',
    });
    expect(routine).toMatchObject({
      name: 'Send the contact form as ‹first name› ‹last name›, ‹email›',
      version: 1,
      sourceTaskId: taskId,
      enabled: true,
      runs: 0,
      parameters: [
        { name: 'firstName', example: 'Ann', source: 'goal', steps: [0] },
        { name: 'lastName', example: 'Lee', source: 'goal', steps: [1] },
        { name: 'email', example: 'ann@example.com', source: 'goal', steps: [2] },
      ],
    });
    expect(routine?.steps.map((s) => [s.action, s.value, s.chained, s.safety])).toEqual([
      ['setValue', '{firstName}', true, 'safe'],
      ['setValue', '{lastName}', true, 'safe'],
      ['setValue', '{email}', true, 'safe'],
      ['click', null, false, 'safe'],
    ]);
    expect(routine?.steps[0]?.target?.locators[0]).toEqual({
      by: 'role-name',
      role: 'inp',
      name: 'First name',
    });
    // What verification confirmed after the chain: the page moved on, a model judged the goal.
    expect(routine?.steps[3]?.expect).toMatchObject({
      tier: 2,
      urlChanged: true,
      url: 'https://forms.example/thanks',
      reason: 'the thank-you page is shown',
    });

    // Another person through the same steps: the routine reruns, so no new version.
    await sendForm(agent, ['Bo', 'Chen', 'bo@example.com'], false);
    const all = await agent.store.routines.list(tenantId);
    expect(all.items.map((r) => r.id)).toEqual([routine?.id]);
    // Another tenant sees none of it.
    const stranger = await agent.store.tenants.create({ name: 'another tenant' });
    expect((await agent.store.routines.list(stranger.id)).items).toEqual([]);
  });

  it('a task with a step that was not verified leaves no routine', async () => {
    const fields: SemanticNodeV3[] = [
      { i: 'f1', r: 'inp', n: 'Name', v: '' },
      { i: 'f2', r: 'inp', n: 'Email', v: '' },
      { i: 'f3', r: 'sel', n: 'Country', v: '' },
      { i: 'go', r: 'btn', n: 'Submit' },
    ];
    const chain = [
      { action: 'setValue("f1", "Ann")', description: 'Name' },
      { action: 'setValue("f2", "ann@example.com")', description: 'Email' },
      { action: 'select("f3", "France")', description: 'Country' },
    ];
    agent = await createTestAgent({
      steps: [
        pageContextStep('The goal states the values.'),
        plan,
        {
          node: 'action_generation',
          output: { thought: 'Fill the fields', action: chain[0]?.action, chain, confidence: 0.95 },
        },
        sentOk,
        { node: 'finalize', output: { answer: 'The contact form was sent.' } },
      ],
    });
    const query = 'Send the contact form as Ann, ann@example.com, France';
    const r1 = await agent.act(pageRequest(URL, fields, { query }));
    const ids = { taskId: r1.taskId, sessionId: r1.sessionId };
    // Two fields were typed; the select had re-rendered, so the chain stopped there.
    const rerendered = fields.map((f) =>
      f.i === 'f3' ? { ...f, i: 'f3b' } : { ...f, v: { f1: 'Ann', f2: 'ann@example.com' }[f.i] },
    );
    const r2 = await agent.act(
      pageRequest(URL, rerendered, {
        ...ids,
        lastActionStatus: 'failure',
        lastExecutedActionIndex: 1,
        chainActionError: { action: chain[2]?.action ?? '', message: 'not found', index: 2 },
      }),
    );
    expect(r2.verification).toMatchObject({ success: false });
    const filled = rerendered.map((f) => (f.i === 'f3b' ? { ...f, v: 'France' } : f));
    const r3 = await agent.act(
      pageRequest(URL, filled, { ...ids, lastActionStatus: 'success', lastExecutedActionIndex: 0 }),
    );
    expect(r3.action).toBe('click("go")');
    const r4 = await agent.act(
      pageRequest('https://forms.example/thanks', thanks, { ...ids, lastActionStatus: 'success' }),
    );
    expect(r4.status).toBe('completed');
    expect((await agent.store.routines.list(agent.caller.tenantId)).items).toEqual([]);
    // Refused for the step that was not verified, not for anything else.
    const state = await agent.service.graph.getState({ configurable: { thread_id: r1.taskId } });
    const saved = await saveRoutine(agent.store, state.values as InteractStateType, silentLogger);
    expect(saved).toEqual({
      skipped: 'not_compiled',
      reason: 'a chain on step 1 stopped part-way, unverified',
    });
  });

  it('reruns a saved routine with other values and no model call', async () => {
    agent = await createTestAgent({ steps: [] });
    const { tenantId } = agent.caller;
    const firstTask = await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    const callsBefore = agent.scripted?.calls.length ?? 0;

    const r1 = await agent.act(
      pageRequest(URL, form, { query: 'Send the contact form as Bo Chen, bo@example.com' }),
    );
    expect(r1.actions?.map((a) => a.action)).toEqual([
      'setValue("f1", "Bo")',
      'setValue("f2", "Chen")',
      'setValue("f3", "bo@example.com")',
      'click("go")',
    ]);
    expect(r1.routine).toMatchObject({ version: 1, done: 0, steps: 4, modelCalls: 0, healed: [] });
    expect(r1.plan).toBeUndefined();
    const r2 = await thanked(agent, r1);
    expect(r2.status).toBe('completed');
    expect(r2.result).toContain('saved routine');
    expect(r2.verification).toMatchObject({ success: true, verificationTier: 1 });
    expect(r2.routine).toMatchObject({ done: 4, modelCalls: 0, fellBack: null });
    expect(agent.scripted?.calls.length).toBe(callsBefore);
    await agent.usage.drain();
    expect(await agent.store.tokenUsage.list(tenantId, { taskId: r1.taskId })).toEqual([]);

    const routines = await agent.store.routines.list(tenantId);
    expect(routines.items).toHaveLength(1);
    const first = await agent.store.tasks.get(tenantId, firstTask);
    expect(routines.items[0]).toMatchObject({ runs: 1, heals: 0 });
    expect(routines.items[0]?.tokensSaved).toBe(first?.metrics.totalTokens);
  });

  it('heals a step whose outcome changed with one call and keeps the fix as a version', async () => {
    agent = await createTestAgent({ steps: [] });
    const { tenantId } = agent.caller;
    await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    const callsBefore = agent.scripted?.calls.length ?? 0;
    agent.scripted?.push({
      node: 'action_generation',
      output: {
        thought: 'The form now asks to confirm',
        action: 'click("ok")',
        chain: null,
        confidence: 0.9,
        outcome: {
          description: 'the thank-you page',
          urlShouldChange: true,
          completesGoal: true,
          answer: null,
        },
      },
    });
    const r1 = await agent.act(
      pageRequest(URL, form, { query: 'Send the contact form as Bo Chen, bo@example.com' }),
    );
    const ids = { taskId: r1.taskId, sessionId: r1.sessionId };
    // A confirmation dialog the routine never saw.
    const dialog: SemanticNodeV3[] = [
      ...form.map((f) => ({ ...f, occ: true })),
      { i: 'ok', r: 'btn', n: 'Confirm' },
      { i: 'no', r: 'btn', n: 'Cancel' },
    ];
    const r2 = await agent.act(
      pageRequest(URL, dialog, { ...ids, lastActionStatus: 'success', lastExecutedActionIndex: 3 }),
    );
    expect(r2.verification).toMatchObject({ success: false });
    expect(r2.action).toBe('click("ok")');
    const r3 = await agent.act(
      pageRequest('https://forms.example/thanks', thanks, { ...ids, lastActionStatus: 'success' }),
    );
    expect(r3.status).toBe('completed');
    expect(r3.routine).toMatchObject({ modelCalls: 1, healed: [3], fellBack: null });
    expect(agent.scripted?.calls.slice(callsBefore).map((c) => c.actionType)).toEqual([
      'ROUTINE_HEAL',
    ]);

    const versions = await agent.store.routines.list(tenantId);
    expect(versions.items.map((r) => r.version)).toEqual([2, 1]);
    const v2 = versions.items[0];
    expect(v2?.steps.map((s) => [s.action, s.value])).toEqual([
      ['setValue', '{firstName}'],
      ['setValue', '{lastName}'],
      ['setValue', '{email}'],
      ['click', null],
      ['click', null],
    ]);
    expect(v2?.steps[4]?.target?.locators[0]).toEqual({
      by: 'role-name',
      role: 'btn',
      name: 'Confirm',
    });
    expect(versions.items[1]).toMatchObject({ runs: 1, heals: 1 });
  });

  it('declines a routine on another page of the site and runs with the model', async () => {
    agent = await createTestAgent({ steps: [] });
    await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    const callsBefore = agent.scripted?.calls.length ?? 0;
    agent.scripted?.push(pageContextStep('Another form'), plan, {
      node: 'action_generation',
      output: { thought: 'Fill', action: 'setValue("f1", "Bo")', chain: null, confidence: 0.9 },
    });
    const r1 = await agent.act(
      pageRequest('https://forms.example/staff', form, {
        query: 'Send the contact form as Bo Chen, bo@example.com',
      }),
    );
    expect(r1.routine).toBeUndefined();
    expect(r1.action).toBe('setValue("f1", "Bo")');
    expect(agent.scripted?.calls.slice(callsBefore).map((c) => c.actionType)).toEqual([
      'CONTEXT_ANALYSIS',
      'PLANNING',
      'ACTION_GENERATION',
    ]);
  });

  // Every label reworded: only positions are left, which a routine does not type by.
  const renamed: SemanticNodeV3[] = [
    { i: 'g1', r: 'inp', n: 'Given name', v: '' },
    { i: 'g2', r: 'inp', n: 'Surname', v: '' },
    { i: 'g3', r: 'inp', n: 'E-mail address', v: '' },
    { i: 'go', r: 'btn', n: 'Send' },
  ];

  it('hands over to the agent when two steps in a row need the model', async () => {
    agent = await createTestAgent({ steps: [] });
    await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    agent.scripted?.push(
      {
        node: 'action_generation',
        output: {
          thought: 'First name is now Given name',
          action: 'setValue("g1", "Bo")',
          chain: null,
          confidence: 0.9,
        },
      },
      {
        node: 'action_generation',
        output: {
          thought: 'Surname',
          action: 'setValue("g2", "Chen")',
          chain: null,
          confidence: 0.9,
        },
      },
    );
    const r1 = await agent.act(
      pageRequest(URL, renamed, { query: 'Send the contact form as Bo Chen, bo@example.com' }),
    );
    expect(r1.action).toBe('setValue("g1", "Bo")');
    expect(r1.routine).toMatchObject({ done: 0, fellBack: null });
    const typed = renamed.map((n) => (n.i === 'g1' ? { ...n, v: 'Bo' } : n));
    const r2 = await agent.act(
      pageRequest(URL, typed, {
        taskId: r1.taskId,
        sessionId: r1.sessionId,
        lastActionStatus: 'success',
      }),
    );
    expect(r2.routine?.fellBack).toMatch(/right after a healed step/);
    expect(r2.action).toBe('setValue("g2", "Chen")');
  });

  it('refuses a heal that types a value the goal did not give', async () => {
    agent = await createTestAgent({ steps: [] });
    await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    agent.scripted?.push(
      {
        node: 'action_generation',
        output: {
          thought: 'Type it',
          action: 'setValue("g1", "Mallory")',
          chain: null,
          confidence: 0.9,
        },
      },
      {
        node: 'action_generation',
        output: {
          thought: 'Type it',
          action: 'setValue("g1", "Mallory")',
          chain: null,
          confidence: 0.9,
        },
      },
    );
    await expect(
      agent.act(
        pageRequest(URL, renamed, { query: 'Send the contact form as Bo Chen, bo@example.com' }),
      ),
    ).rejects.toThrow(/Stopped for safety.*Mallory/);
  });

  it('keeps {{…}} markers for the routine and out of the model’s prompts', async () => {
    agent = await createTestAgent({ steps: [] });
    const { tenantId } = agent.caller;
    const chain = [
      { action: 'setValue("f1", "Ann")', description: 'First name' },
      { action: 'setValue("f2", "Lee")', description: 'Last name' },
      { action: 'setValue("f3", "ann@example.com")', description: 'Email' },
      { action: 'click("go")', description: 'Send the form' },
    ];
    agent.scripted?.push(
      pageContextStep('The goal states the name and email.'),
      plan,
      {
        node: 'action_generation',
        output: { thought: 'Fill and send', action: chain[0]?.action, chain, confidence: 0.95 },
      },
      sentOk,
      { node: 'finalize', output: { answer: 'The contact form was sent.' } },
    );
    const r1 = await agent.act(
      pageRequest(URL, form, {
        query: 'Send the contact form as {{given=Ann}} Lee, {{ann@example.com}}',
      }),
    );
    await thanked(agent, r1);
    for (const call of agent.scripted?.calls ?? []) expect(call.prompt).not.toContain('{{');
    expect(agent.scripted?.calls[0]?.prompt).toContain(
      'Send the contact form as Ann Lee, ann@example.com',
    );
    const [routine] = (await agent.store.routines.list(tenantId)).items;
    expect(routine?.goalTemplate).toMatch(
      /^Send the contact form as \{given\} \{lastName\}, \{\w+\}$/,
    );
  });

  it('records a renamed button found by its neighbour as the next version, with no call', async () => {
    agent = await createTestAgent({ steps: [] });
    const { tenantId } = agent.caller;
    await sendForm(agent, ['Ann', 'Lee', 'ann@example.com']);
    const callsBefore = agent.scripted?.calls.length ?? 0;
    const renamedButton = form.map((n) => (n.i === 'go' ? { ...n, n: 'Send now' } : n));
    const r1 = await agent.act(
      pageRequest(URL, renamedButton, {
        query: 'Send the contact form as Bo Chen, bo@example.com',
      }),
    );
    expect(r1.actions?.at(-1)?.action).toBe('click("go")');
    const r2 = await thanked(agent, r1);
    expect(r2.status).toBe('completed');
    expect(agent.scripted?.calls.length).toBe(callsBefore);
    const versions = (await agent.store.routines.list(tenantId)).items;
    expect(versions.map((r) => r.version)).toEqual([2, 1]);
    expect(versions[0]?.steps[3]?.target?.fingerprint).toBe('btn|Send now|f0|#0');
    expect(versions[1]).toMatchObject({ runs: 1, heals: 0 });
  });
});
