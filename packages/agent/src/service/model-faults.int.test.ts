// Model faults at each graph node that calls the model, through the real @google/genai SDK
// talking to a loopback fake of the Gemini API: 429, 500, an answer slower than the timeout,
// malformed JSON and a candidate stopped by the safety filter (sampled again once). A fault the
// client's retries (or its one repair) absorb must leave the task
// exactly as a clean run does; a model that keeps failing ends the request with a clear
// LLM_ERROR, after which the same request (same idempotency key), once the model is back,
// continues the same task. Either way: every step recorded once, no task lost or doubled.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { nodeOfSystem } from '../testing/node-of-system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClientFromConfig } from '@tandem/llm';
import { LlmCallError, ProviderError, type LlmNode } from '@tandem/llm';
import {
  startFakeHttpServer,
  type FakeHttpServer,
  type FakeResponse,
  type RecordedRequest,
} from '@tandem/llm/testing';
import { createTestAgent, pageContextStep, pageRequest, type TestAgent } from '../testing/harness';
import { PAGE_IS_ENOUGH } from '../testing/model-double';

/** The fault served in place of one answer. */
type Fault = '429' | '500' | 'timeout' | 'malformed' | 'safety';
const FAULTS: Fault[] = ['429', '500', 'timeout', 'malformed', 'safety'];
/** Per-attempt timeout of this test's client, and how late the slow answer comes. */
const TIMEOUT_MS = 300;

function geminiText(text: string): FakeResponse {
  return {
    body: {
      candidates: [
        { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 10, totalTokenCount: 60 },
      modelVersion: 'gemini-2.5-flash',
    },
  };
}

function faultResponse(fault: Fault, answer: string): FakeResponse {
  const error = (code: number, status: string): FakeResponse => ({
    status: code,
    body: { error: { code, message: `fake ${status}`, status } },
  });
  switch (fault) {
    case '429':
      return { ...error(429, 'RESOURCE_EXHAUSTED'), headers: { 'retry-after': '0' } };
    case '500':
      return error(500, 'INTERNAL');
    case 'timeout':
      // The right answer, too late: the attempt times out and the retry gets the next one.
      return { ...geminiText(answer), delayMs: TIMEOUT_MS * 4 };
    case 'malformed':
      return geminiText(`${answer.slice(0, Math.floor(answer.length / 2))} ,,`);
    case 'safety':
      // No text: the candidate was stopped by the safety filter, as Gemini answers it.
      return {
        body: {
          candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY', index: 0 }],
          usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 0, totalTokenCount: 50 },
          modelVersion: 'gemini-2.5-flash',
        },
      };
  }
}

/** A call's node as the fake knows it: context analysis that plans too is its own. */
type CallNode = LlmNode | 'context_planning';

interface ModelScript {
  /** Answers per node, first in first out. */
  answers: Partial<Record<LlmNode, unknown[]>>;
  /** Faults served before the node's next answer: once, `times` times, or on every attempt. */
  faultAt?: { node: CallNode; fault: Fault; times?: number; persistent?: boolean };
}

/** The node the client names in its errors ("GOOGLE call for context_analysis"). */
const clientNode = (node: CallNode): LlmNode =>
  node === 'context_planning' ? 'context_analysis' : node;

/** The fake Gemini: recognises the node by its system prompt, serves the fault, then the answer. */
function geminiHandler(script: ModelScript, calls: string[]) {
  const queues = new Map(Object.entries(script.answers).map(([n, a]) => [n, [...(a ?? [])]]));
  let faultsLeft = script.faultAt ? (script.faultAt.times ?? 1) : 0;
  return (request: RecordedRequest): FakeResponse => {
    const body = request.body as { systemInstruction?: { parts: { text: string }[] } };
    const node = nodeOfSystem(body.systemInstruction?.parts.map((p) => p.text).join('\n') ?? '');
    calls.push(node);
    // One call answers for both: the analysis with the plan in it.
    const plan = node === 'context_planning' ? queues.get('planning')?.[0] : undefined;
    const queue = queues.get(node === 'context_planning' ? 'context_analysis' : node);
    const next = plan === undefined ? queue?.[0] : { ...(queue?.[0] as object), plan };
    if (next === undefined) {
      return {
        status: 400,
        body: {
          error: { code: 400, message: `unscripted ${node} call`, status: 'INVALID_ARGUMENT' },
        },
      };
    }
    const answer = JSON.stringify(next);
    const fault = script.faultAt;
    if (fault && fault.node === node && (fault.persistent || faultsLeft > 0)) {
      faultsLeft -= 1;
      return faultResponse(fault.fault, answer);
    }
    queue?.shift();
    if (plan !== undefined) queues.get('planning')?.shift();
    return geminiText(answer);
  };
}

// ------------------------------------------------------------------ the flows

const pageContext = { ...PAGE_IS_ENOUGH, reasoning: 'The goal states every value.' };
const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'save', r: 'btn', n: 'Save' },
];
const saved: SemanticNodeV3[] = [
  ...form,
  { i: 'ok', r: 'status', n: 'Patient Jas saved successfully' },
];

type Request = Parameters<TestAgent['act']>[0];
type Response = Awaited<ReturnType<TestAgent['act']>>;

interface Flow {
  name: string;
  nodes: CallNode[];
  answers: ModelScript['answers'];
  /** The flow's requests, each built from the answers before it. */
  requests: ((previous: Response[]) => Request)[];
  /** The actions stored for the task at the end, in order. */
  expected: string[];
}

const continuing = (previous: Response[], extra: Partial<Request> = {}): Partial<Request> => ({
  taskId: previous.at(-1)?.taskId,
  sessionId: previous.at(-1)?.sessionId,
  lastActionStatus: 'success',
  ...extra,
});

const twoSaves: SemanticNodeV3[] = [
  { i: 's1', r: 'btn', n: 'Save' },
  { i: 's2', r: 'btn', n: 'Save draft' },
];

/** Save on the new-patient form, then the page that confirms it. */
const SAVE_JAS: Flow['requests'] = [
  () => pageRequest('https://emr.example/new', form, { query: 'Save the new patient Jas' }),
  (previous) =>
    pageRequest(
      'https://emr.example/new',
      saved,
      continuing(previous, {
        hasSuccess: true,
        success_messages: ['Patient Jas saved successfully'],
      }),
    ),
];

const FLOWS: Flow[] = [
  {
    // An unsure proposal goes to the critic; outcome prediction follows.
    name: 'plan, propose, review, predict',
    nodes: ['context_planning', 'action_generation', 'critic'],
    answers: {
      context_analysis: [pageContext],
      planning: [
        { goal: 'add Jas', steps: [{ description: 'Fill in the form', refinable: false }] },
      ],
      action_generation: [
        {
          thought: 'Type the name.',
          action: 'setValue("first", "Jas")',
          chain: null,
          confidence: 0.6,
        },
      ],
      critic: [{ approve: true, reason: 'The name goes into First name.', evidence: 'First name' }],
      outcome_prediction: [
        { description: 'First name holds Jas', urlShouldChange: false, nextGoal: null },
      ],
    },
    requests: [
      () => pageRequest('https://emr.example/new', form, { query: 'Add a new patient named Jas' }),
    ],
    expected: ['setValue("first", "Jas")'],
  },
  {
    // An action answer that states no outcome: the model predicts it, verifies completion and
    // writes the answer, each in its own call.
    name: 'verify completion, finalize',
    nodes: ['outcome_prediction', 'verification', 'finalize'],
    answers: {
      context_analysis: [pageContext],
      planning: [{ goal: 'save Jas', steps: [{ description: 'Save the form', refinable: false }] }],
      action_generation: [
        { thought: 'Save.', action: 'click("save")', chain: null, confidence: 0.9 },
      ],
      outcome_prediction: [
        { description: 'A success message', urlShouldChange: false, nextGoal: null },
      ],
      verification: [
        { action_succeeded: true, task_completed: true, confidence: 0.95, reason: 'Saved.' },
      ],
      finalize: [{ answer: 'Jas was saved.' }],
    },
    requests: SAVE_JAS,
    expected: ['click("save")', 'finish("Jas was saved.")'],
  },
  {
    // One call per step: the action states its outcome and the answer; the page confirms it,
    // so no outcome, verification or final-answer call follows.
    name: 'act with its outcome, confirmed by the page',
    nodes: ['context_planning', 'action_generation'],
    answers: {
      context_analysis: [pageContext],
      planning: [{ goal: 'save Jas', steps: [{ description: 'Save the form', refinable: false }] }],
      action_generation: [
        {
          thought: 'Save.',
          action: 'click("save")',
          chain: null,
          confidence: 0.9,
          outcome: {
            description: 'A success message',
            urlShouldChange: false,
            completesGoal: true,
            answer: 'Jas was saved.',
          },
        },
      ],
    },
    requests: SAVE_JAS,
    expected: ['click("save")', 'finish("Jas was saved.")'],
  },
  {
    // A click that changed nothing: tier 1 fails it, the model corrects it (a correction reuses
    // its step's recorded action).
    name: 'correct a failed step',
    nodes: ['correction'],
    answers: {
      correction: [
        { strategy: 'ALTERNATIVE_SELECTOR', action: 'click("s2")', reason: 'the other Save' },
      ],
    },
    requests: [
      () => pageRequest('https://app.example/doc', twoSaves, { query: 'click Save' }),
      (previous) => pageRequest('https://app.example/doc', twoSaves, continuing(previous)),
    ],
    expected: ['click("s1")'],
  },
  {
    // A command the tree cannot resolve goes to the model.
    name: 'a SIMPLE command the page does not name',
    nodes: ['direct_action'],
    answers: {
      direct_action: [{ thought: 'Logout is the sign-out link.', action: 'click("out")' }],
    },
    requests: [
      () =>
        pageRequest('https://app.example/', [{ i: 'out', r: 'link', n: 'Logout' }], {
          query: 'click Sign out',
        }),
    ],
    expected: ['click("out")'],
  },
];

// ------------------------------------------------------------------ harness

let gemini: FakeHttpServer;
beforeAll(async () => {
  gemini = await startFakeHttpServer();
});
afterAll(() => gemini.close());

async function agentFor(script: ModelScript, calls: string[]): Promise<TestAgent> {
  gemini.setHandler(geminiHandler(script, calls));
  return createTestAgent({
    llm: (hooks) =>
      createLlmClientFromConfig(
        {
          geminiApiKey: 'fake-gemini-key',
          geminiBaseUrl: gemini.url,
          timeoutMs: TIMEOUT_MS,
          retryBaseDelayMs: 5,
        },
        hooks,
      ),
  });
}

/**
 * Sends the flow's requests, each under its own idempotency key as the extension does. A request
 * the model fails is handed to `onFailure`, which may resend it (same key) once the model is back.
 */
async function runFlow(
  agent: TestAgent,
  flow: Flow,
  onFailure?: (error: unknown, resend: () => Promise<Response>) => Promise<Response>,
): Promise<Response[]> {
  const responses: Response[] = [];
  for (const build of flow.requests) {
    const request = { ...build(responses), idempotencyKey: crypto.randomUUID() };
    const answer = await agent.act(request).catch((error: unknown) => {
      if (!onFailure) throw error;
      return onFailure(error, () => agent.act(request));
    });
    responses.push(answer);
  }
  return responses;
}

async function storedActions(agent: TestAgent): Promise<{ tasks: number; actions: string[] }> {
  const { items } = await agent.store.tasks.list(agent.caller.tenantId, {});
  const actions = await Promise.all(
    items.map((t) => agent.store.taskActions.listByTask(agent.caller.tenantId, t.id)),
  );
  return { tasks: items.length, actions: actions.flat().map((a) => a.action) };
}

/** Billed calls whose task id has no task record (the admin's per-task view would miss them). */
async function unrecordedUsage(agent: TestAgent): Promise<string[]> {
  const tenantId = agent.caller.tenantId;
  const { items } = await agent.store.tasks.list(tenantId, {});
  const ids = new Set(items.map((t) => t.id));
  const usage = await agent.store.tokenUsage.list(tenantId);
  return usage.flatMap((u) =>
    u.taskId && !ids.has(u.taskId) ? [`${u.actionType} ${u.taskId}`] : [],
  );
}

describe.each(FLOWS)('model faults: $name', (flow) => {
  it.each(flow.nodes.flatMap((node) => FAULTS.map((fault) => ({ node, fault }))))(
    'a $fault at $node is absorbed: the task goes on as in a clean run',
    async ({ node, fault }) => {
      const calls: string[] = [];
      const agent = await agentFor({ answers: flow.answers, faultAt: { node, fault } }, calls);
      try {
        await runFlow(agent, flow);
        expect(await storedActions(agent)).toEqual({ tasks: 1, actions: flow.expected });
        // The faulty attempt, then the one that answered (for malformed JSON: the repair).
        expect(calls.filter((n) => n === node)).toHaveLength(2);
      } finally {
        await agent.store.close();
      }
    },
  );

  it.each(flow.nodes)(
    'a safety block at %s and on its retry: asked once more rephrased, the task goes on as in a clean run',
    async (node) => {
      const calls: string[] = [];
      const agent = await agentFor(
        { answers: flow.answers, faultAt: { node, fault: 'safety', times: 2 } },
        calls,
      );
      try {
        await runFlow(agent, flow);
        expect(await storedActions(agent)).toEqual({ tasks: 1, actions: flow.expected });
        expect(calls.filter((n) => n === node)).toHaveLength(3);
      } finally {
        await agent.store.close();
      }
    },
  );

  it.each(flow.nodes)(
    'a safety block at %s, on its retry and when rephrased: 422 LLM_REFUSED (or a safe fallback), the task failed',
    async (node) => {
      const calls: string[] = [];
      const agent = await agentFor(
        { answers: flow.answers, faultAt: { node, fault: 'safety', times: 3 } },
        calls,
      );
      const failures: unknown[] = [];
      let resendFailed: () => Promise<Response> = () => Promise.reject(new Error('none failed'));
      try {
        await runFlow(agent, flow, (error, resend) => {
          failures.push(error);
          resendFailed = resend;
          throw error;
        }).catch(() => undefined);
        // Sampled again once, asked once rephrased, then given up: not retried more.
        expect(calls.filter((n) => n === node)).toHaveLength(3);
        const { items: tasks } = await agent.store.tasks.list(agent.caller.tenantId, {});
        for (const failure of failures) {
          expect(failure).toMatchObject({ code: 'LLM_REFUSED', status: 422 });
          expect((failure as Error).message).toMatch(/refused to answer.*will not change that/);
          // A continuation's task ends now, not at the zombie sweep; a first request has none yet.
          for (const task of tasks) expect(task.status).toBe('failed');
        }
        expect(await unrecordedUsage(agent)).toEqual([]);
        // The extension's resend of the same request is refused at once, the model not asked.
        if (failures.length > 0 && tasks.length > 0) {
          await expect(resendFailed()).rejects.toMatchObject({ code: 'TASK_FAILED' });
          expect(calls.filter((n) => n === node)).toHaveLength(3);
        }
        console.log(
          `[faults] safety block at ${node}: ${failures.length > 0 ? `LLM_REFUSED, ${tasks.length} task(s) failed` : 'safe fallback, the task continued'}`,
        );
      } finally {
        await agent.store.close();
      }
    },
  );

  it.each(flow.nodes)(
    'the model down at %s: the resent request asks the model only from the node that failed',
    async (node) => {
      const clean: string[] = [];
      const cleanAgent = await agentFor({ answers: flow.answers }, clean);
      try {
        await runFlow(cleanAgent, flow);
      } finally {
        await cleanAgent.store.close();
      }
      const calls: string[] = [];
      const agent = await agentFor(
        { answers: flow.answers, faultAt: { node, fault: '500', persistent: true } },
        calls,
      );
      try {
        let failed = false;
        await runFlow(agent, flow, (_error, resend) => {
          failed = true;
          gemini.setHandler(geminiHandler({ answers: flow.answers }, calls));
          return resend();
        });
        // Every other node answered once, as in a clean run: the calls the failed request's
        // run had made before it threw were not made again.
        expect(calls.filter((n) => n !== node)).toEqual(clean.filter((n) => n !== node));
        // A node with a safe fallback (the final answer's template) fails no request.
        if (failed) expect((await storedActions(agent)).actions).toEqual(flow.expected);
      } finally {
        await agent.store.close();
      }
    },
  );

  it.each(flow.nodes)(
    'the model down at %s: a clear error (or a safe fallback), and the same request later continues',
    async (node) => {
      const calls: string[] = [];
      const script: ModelScript = {
        answers: flow.answers,
        faultAt: { node, fault: '500', persistent: true },
      };
      const agent = await agentFor(script, calls);
      const failures: unknown[] = [];
      try {
        await runFlow(agent, flow, async (error, resend) => {
          failures.push(error);
          // The model is back; the client resends the failed request with its key.
          gemini.setHandler(geminiHandler({ answers: flow.answers }, calls));
          return resend();
        });
        const stored = await storedActions(agent);
        // One task, each action stored once, nothing left half-done, every billed call in it.
        expect(stored.tasks).toBe(1);
        expect(await unrecordedUsage(agent)).toEqual([]);
        expect(new Set(stored.actions).size).toBe(stored.actions.length);
        for (const failure of failures) {
          // It says which node failed, after how many retries, and what the provider said.
          expect(failure).toBeInstanceOf(LlmCallError);
          expect((failure as LlmCallError).message).toMatch(
            new RegExp(`GOOGLE call for ${clientNode(node)} failed after 3 retries: .*500`),
          );
        }
        if (failures.length > 0) expect(stored.actions).toEqual(flow.expected);
        console.log(
          `[faults] model down at ${node}: ${failures.length > 0 ? 'LLM_ERROR, then the resent request continued the task' : 'safe fallback, the task continued'}; stored ${JSON.stringify(stored.actions)}`,
        );
      } finally {
        await agent.store.close();
      }
    },
  );
});

// A continuation the model failed midway, sent again under the same idempotency key: the run
// that threw took in the request's page and had the step verified by the model before the next
// action failed, so the resend goes on from that action instead of replaying the step from its
// pause (which would ask for the same verification again).
describe('a failed continuation sent again', () => {
  const EMR_NEW = 'https://emr.example/new';
  const recordForm: SemanticNodeV3[] = [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'save', r: 'btn', n: 'Save' },
    { i: 'list', r: 'link', n: 'Patient list' },
  ];
  const recordSaved: SemanticNodeV3[] = [...recordForm, { i: 'rec', r: 'link', n: 'Record 42' }];
  const outage500 = new ProviderError('upstream 500', {
    kind: 'http',
    status: 500,
    retryable: true,
  });

  it('a step the model failed after verifying it, sent again, asks only for the next action', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep('The goal states the name.'),
        {
          node: 'planning',
          output: {
            goal: 'save Jas, then check the record',
            steps: [{ description: 'Save the form', refinable: false }],
          },
        },
        {
          node: 'action_generation',
          output: { thought: 'Save.', action: 'click("save")', chain: null, confidence: 0.9 },
        },
        {
          node: 'outcome_prediction',
          output: {
            description: 'The form shows Jas as stored',
            urlShouldChange: false,
            nextGoal: null,
          },
        },
        {
          node: 'verification',
          output: {
            action_succeeded: true,
            task_completed: false,
            confidence: 0.9,
            reason: 'Saved.',
          },
        },
        // The next action: its first attempt and three retries fail, the request with them.
        ...Array.from({ length: 4 }, () => ({
          node: 'action_generation' as const,
          error: outage500,
        })),
        {
          node: 'action_generation',
          output: {
            thought: 'Open the record.',
            action: 'click("rec")',
            chain: null,
            confidence: 0.9,
            outcome: { description: 'The record', urlShouldChange: true, completesGoal: true },
          },
        },
      ],
    });
    try {
      const first = await agent.act(
        pageRequest(EMR_NEW, recordForm, { query: 'Save Jas, then check the record' }),
      );
      expect(first.action).toBe('click("save")');
      const step = pageRequest(EMR_NEW, recordSaved, {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'success',
        idempotencyKey: crypto.randomUUID(),
      });
      await expect(agent.act(step)).rejects.toMatchObject({ name: 'LlmCallError' });
      // A replay from the pause would ask for the verification again: none is scripted, so the
      // scripted model would throw.
      const next = await agent.act(step);
      expect(next.action).toBe('click("rec")');
      agent.scripted?.assertDone();
      const usage = await agent.store.tokenUsage.list(agent.caller.tenantId, {
        taskId: first.taskId,
      });
      expect(usage.filter((u) => u.actionType === 'VERIFICATION')).toHaveLength(1);
    } finally {
      await agent.store.close();
    }
  });
});
