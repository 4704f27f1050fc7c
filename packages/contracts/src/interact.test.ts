import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  ActiveTaskResponse,
  type DomMode,
  InteractRequest,
  type InteractRequestInput,
  InteractResponse,
  isNeedsUserInput,
  NextActionResponse,
  requestsPageState,
  resolveDomMode,
} from './interact';
import { HealthResponse, WhoAmIResponse } from './system';

const TASK_ID = '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
const SESSION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** Field path → messages of a failed parse, so tests assert on what a client would see. */
function fieldErrors(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the parse to fail');
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    (errors[path] ??= []).push(issue.message);
  }
  return errors;
}

// The spec's "Example V3 Payload", plus the url and query every first request carries.
const specV3Payload: Omit<InteractRequestInput, 'url'> = {
  domMode: 'semantic_v3',
  pageTitle: 'Google',
  viewport: { width: 1280, height: 800 },
  interactiveTree: [
    { i: '12', r: 'link', n: 'Gmail', xy: [900, 20] },
    { i: '14', r: 'inp', n: 'Search', v: '', xy: [400, 300] },
    { i: '15', r: 'btn', n: 'Google Search', xy: [400, 350] },
  ],
};
const firstRequest: InteractRequestInput = {
  ...specV3Payload,
  url: 'https://www.google.com/',
  query: 'search for "cats"',
};

describe('InteractRequest', () => {
  it('types the parsed request with a resolved domMode and optional query/taskId', () => {
    expectTypeOf<InteractRequest['domMode']>().toEqualTypeOf<DomMode>();
    expectTypeOf<InteractRequest['query']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InteractRequest['taskId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InteractRequestInput['domMode']>().toEqualTypeOf<DomMode | undefined>();
    expect(InteractRequest.parse(firstRequest).domMode).toBe('semantic_v3');
  });

  it('accepts the spec V3 payload without any dom', () => {
    const parsed = InteractRequest.parse(firstRequest);
    expect(parsed.domMode).toBe('semantic_v3');
    expect(parsed.dom).toBeUndefined();
    expect(parsed.interactiveTree).toHaveLength(3);
    expect(parsed.interactiveTree?.[1]).toStrictEqual({
      i: '14',
      r: 'inp',
      n: 'Search',
      v: '',
      xy: [400, 300],
    });
    expect(parsed.query).toBe('search for "cats"');
  });

  it('reports the fields the bare spec example lacks', () => {
    expect(fieldErrors(InteractRequest, specV3Payload)).toStrictEqual({
      url: ['must be an absolute URL'],
    });
  });

  it('defaults domMode to semantic_v3 when interactiveTree is sent, to skeleton for dom only', () => {
    const { domMode: _omitted, ...withoutMode } = firstRequest;
    expect(InteractRequest.parse(withoutMode).domMode).toBe('semantic_v3');
    expect(
      InteractRequest.parse({
        url: 'https://app.example.com/',
        query: 'add a patient',
        dom: '<html/>',
      }).domMode,
    ).toBe('skeleton');
    expect(resolveDomMode({ interactiveTree: [], domMode: 'hybrid' })).toBe('hybrid');
    expect(resolveDomMode({})).toBeUndefined();
  });

  it('accepts the V3 advanced fields and the whole continuation state', () => {
    const parsed = InteractRequest.parse({
      ...firstRequest,
      interactiveTree: [
        {
          i: 'f1:7',
          r: 'chk',
          n: 'Remember me',
          s: 'checked,disabled',
          xy: [10, 20],
          f: 1,
          box: [0, 10, 20, 20],
          scr: { depth: '50%', h: 2400 },
          occ: true,
        },
      ],
      query: undefined,
      taskId: TASK_ID,
      sessionId: SESSION_ID,
      scrollPosition: '50%',
      scrollableContainers: [{ id: '40', depth: '10%', h: 9000, hasMore: true }],
      recentEvents: ['added: dialog "Saved"'],
      hasErrors: false,
      hasSuccess: true,
      verification_passed: true,
      errors_detected: [],
      success_messages: ['Patient saved'],
      lastActionStatus: 'failure',
      lastActionError: 'element 22 not found',
      previousUrl: 'https://www.google.com/?q=x',
      clientObservations: { didNetworkOccur: true, didDomMutate: true, didUrlChange: false },
      lastExecutedActionIndex: 1,
      chainPartialState: {
        executedActions: ['setValue("1", "Jas")', 'setValue("2", "Doe")'],
        totalActionsInChain: 4,
      },
      chainActionError: { action: 'click("22")', message: 'element 22 not found', index: 2 },
      screenshot: null,
      screenshotHash: 'a1b2c3',
      snapshot: { mode: 'outline', text: '- main /main\n  - h1 "Patients"' },
      idempotencyKey: 'req-7f3a',
    });
    expect(parsed.taskId).toBe(TASK_ID);
    expect(parsed.query).toBeUndefined();
    expect(parsed.chainPartialState?.totalActionsInChain).toBe(4);
    expect(parsed.snapshot?.mode).toBe('outline');
  });

  describe('query optionality', () => {
    const base = { url: 'https://x.example/', interactiveTree: [] };

    it('is required, non-blank, for a new task', () => {
      const message =
        'query is required to start a new task (it may be omitted only with a taskId)';
      expect(fieldErrors(InteractRequest, base)).toStrictEqual({ query: [message] });
      expect(fieldErrors(InteractRequest, { ...base, query: '   ' })).toStrictEqual({
        query: [message],
      });
      expect(fieldErrors(InteractRequest, { ...base, taskId: null })).toStrictEqual({
        query: [message],
      });
    });

    it('may be omitted or empty on a continuation, and is then absent after parsing', () => {
      expect(InteractRequest.parse({ ...base, taskId: TASK_ID }).query).toBeUndefined();
      const parsed = InteractRequest.parse({ ...base, taskId: TASK_ID, query: '' });
      expect('query' in parsed).toBe(false);
      expect(InteractRequest.parse({ ...base, taskId: TASK_ID, query: 'again' }).query).toBe(
        'again',
      );
    });

    it('drops null taskId / sessionId (clients echo NeedsUserInputResponse.taskId)', () => {
      const parsed = InteractRequest.parse({ ...base, query: 'go', taskId: null, sessionId: null });
      expect('taskId' in parsed).toBe(false);
      expect('sessionId' in parsed).toBe(false);
    });
  });

  describe('page state per domMode', () => {
    const base = { url: 'https://x.example/', query: 'go' };

    it('needs interactiveTree in semantic modes', () => {
      expect(
        fieldErrors(InteractRequest, { ...base, domMode: 'semantic_v3', dom: '<html/>' }),
      ).toStrictEqual({
        interactiveTree: ['interactiveTree is required when domMode is "semantic_v3"'],
      });
      expect(fieldErrors(InteractRequest, { ...base, domMode: 'semantic' })).toStrictEqual({
        interactiveTree: ['interactiveTree is required when domMode is "semantic"'],
      });
    });

    it('needs a non-empty dom in full mode', () => {
      expect(
        fieldErrors(InteractRequest, { ...base, domMode: 'full', interactiveTree: [] }),
      ).toStrictEqual({
        dom: ['dom (non-empty) is required when domMode is "full"'],
      });
      expect(fieldErrors(InteractRequest, { ...base, domMode: 'full', dom: '' })).toStrictEqual({
        dom: ['dom (non-empty) is required when domMode is "full"'],
      });
      expect(
        InteractRequest.parse({ ...base, domMode: 'full', dom: '<html></html>' }).domMode,
      ).toBe('full');
    });

    it('needs dom or skeletonDom in skeleton mode, and a screenshot or either in hybrid', () => {
      expect(fieldErrors(InteractRequest, { ...base, domMode: 'skeleton' })).toStrictEqual({
        skeletonDom: ['skeletonDom or dom is required when domMode is "skeleton"'],
      });
      expect(
        fieldErrors(InteractRequest, { ...base, domMode: 'hybrid', screenshot: null }),
      ).toStrictEqual({
        screenshot: ['screenshot, skeletonDom or dom is required when domMode is "hybrid"'],
      });
      // A page drawn on a canvas: no element to list, the screenshot is its state.
      const canvasOnly = InteractRequest.parse({
        ...base,
        domMode: 'hybrid',
        interactiveTree: [],
        skeletonDom: '',
        screenshot: '/9j/4AAQSkZJRg==',
        viewport: { width: 1280, height: 800 },
        viewportContent: { canvases: 1, images: 0, textLength: 120 },
      });
      expect(canvasOnly.viewportContent).toStrictEqual({ canvases: 1, images: 0, textLength: 120 });
      const hybrid = InteractRequest.parse({
        ...base,
        domMode: 'hybrid',
        skeletonDom: '<button id=1>Go</button>',
        screenshot: '/9j/4AAQSkZJRg==',
        screenshotHash: 'ff00',
      });
      expect(hybrid.domMode).toBe('hybrid');
      expect(InteractRequest.parse({ ...base, domMode: 'skeleton', dom: '<html/>' }).domMode).toBe(
        'skeleton',
      );
    });

    it('needs some page state when no mode is given', () => {
      expect(fieldErrors(InteractRequest, base)).toStrictEqual({
        interactiveTree: [
          'page state is required: send interactiveTree (domMode "semantic_v3"), or skeletonDom / dom',
        ],
      });
    });
  });

  describe('size caps', () => {
    const base = { url: 'https://x.example/', query: 'go', interactiveTree: [] };

    it('rejects a dom over 5,000,000 characters with a hint', () => {
      expect(fieldErrors(InteractRequest, { ...base, dom: 'x'.repeat(5_000_001) })).toStrictEqual({
        dom: [
          'dom must be at most 5,000,000 characters — send interactiveTree (domMode "semantic_v3") instead',
        ],
      });
    });

    it('rejects more than 5,000 tree nodes and queries over 4,000 characters', () => {
      const nodes = Array.from({ length: 5_001 }, (_, i) => ({ i: String(i), r: 'btn' }));
      expect(fieldErrors(InteractRequest, { ...base, interactiveTree: nodes })).toStrictEqual({
        interactiveTree: ['interactiveTree must have at most 5,000 nodes — prune to the viewport'],
      });
      expect(fieldErrors(InteractRequest, { ...base, query: 'q'.repeat(4_001) })).toStrictEqual({
        query: ['query must be at most 4,000 characters'],
      });
    });
  });

  it('gives field-level messages for malformed fields', () => {
    const errors = fieldErrors(InteractRequest, {
      url: 'not a url',
      query: 'go',
      taskId: 'abc-123',
      interactiveTree: [{ i: 'a b', r: 'btn', xy: [1] }, { i: '2' }],
      screenshot: 'not base64!',
      lastExecutedActionIndex: -1,
      clientObservations: { didDomMutate: 'yes' },
    });
    expect(errors['url']).toStrictEqual(['must be an absolute URL']);
    expect(errors['taskId']).toStrictEqual(['must be a UUID (the taskId of an earlier response)']);
    expect(errors['interactiveTree.0.i']).toStrictEqual([
      'element id may contain only letters, digits, "_", ":", "." and "-"',
    ]);
    expect(errors['interactiveTree.0.xy']).toHaveLength(1);
    expect(errors['interactiveTree.1.r']).toHaveLength(1);
    expect(errors['screenshot']).toStrictEqual([
      'screenshot must be base64 (a data:image/jpeg;base64, prefix is tolerated)',
    ]);
    expect(errors['lastExecutedActionIndex']).toHaveLength(1);
    expect(errors['clientObservations.didDomMutate']).toHaveLength(1);
  });

  it('checks chain partial state against the chain length', () => {
    const base = { url: 'https://x.example/', taskId: TASK_ID, interactiveTree: [] };
    expect(
      fieldErrors(InteractRequest, {
        ...base,
        lastExecutedActionIndex: 3,
        chainPartialState: { executedActions: ['a', 'b', 'c'], totalActionsInChain: 2 },
      }),
    ).toStrictEqual({
      'chainPartialState.executedActions': ['3 executed actions in a chain of 2'],
      lastExecutedActionIndex: ['lastExecutedActionIndex must be below totalActionsInChain (2)'],
    });
    expect(
      fieldErrors(InteractRequest, {
        ...base,
        chainPartialState: { executedActions: [], totalActionsInChain: 0 },
      }),
    ).toHaveProperty(['chainPartialState.totalActionsInChain']);
  });
});

// ------------------------------------------------------------------ responses

const nextAction = {
  thought: 'The Search box is element 14; type the query into it.',
  action: 'setValue(14, "cats")',
  actionDetails: { name: 'setValue', args: { id: '14', text: 'cats' } },
  taskId: TASK_ID,
  sessionId: SESSION_ID,
  stepIndex: 0,
  status: 'active',
};

describe('NextActionResponse / InteractResponse', () => {
  it('parses a full response with plan, verification, look-ahead, usage and metrics', () => {
    const response = {
      ...nextAction,
      action: 'setValue("1", "Jas")',
      actionDetails: { name: 'setValue', args: { id: '1', text: 'Jas' } },
      actions: [
        { action: 'setValue("1", "Jas")', description: 'First name', index: 0 },
        { action: "setValue(2, 'Doe')", description: 'Last name', index: 1, canFail: false },
        { action: 'click(3)', description: 'Save', index: 2 },
      ],
      chainMetadata: { totalActions: 3, estimatedDuration: 1500, safeToChain: true },
      plan: {
        goal: 'Add patient Jas Doe',
        steps: [{ index: 0, description: 'Fill the form', status: 'active', refinable: true }],
        currentStepIndex: 0,
      },
      status: 'executing',
      verification: {
        success: true,
        confidence: 0.9,
        reason: 'The form opened',
        goalAchieved: false,
        verificationTier: 1,
        nextGoalCheck: { available: true, reason: 'Save button visible' },
      },
      expectedOutcome: {
        description: 'The patient appears in the list',
        urlShouldChange: false,
        nextGoal: { description: 'Save button is visible', textContent: 'Save', required: true },
      },
      usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280, costMicroUsd: 310 },
      metrics: { requestDurationMs: 842, stepCount: 3, llmCalls: 2 },
      hasOrgKnowledge: true,
      rePlanning: false,
      complexity: 'COMPLEX',
    };
    const parsed = InteractResponse.parse(response);
    expect(isNeedsUserInput(parsed)).toBe(false);
    expect(NextActionResponse.parse(response).actions).toHaveLength(3);
  });

  it('parses a NeedsUserInputResponse and tells the two apart', () => {
    const ask = {
      needsUserInput: true,
      message: 'What is the patient’s date of birth?',
      missingInformation: ['date of birth'],
      sessionId: SESSION_ID,
      taskId: null,
    };
    const parsed = InteractResponse.parse(ask);
    expect(isNeedsUserInput(parsed)).toBe(true);
    expect(isNeedsUserInput(InteractResponse.parse(nextAction))).toBe(false);
    expect(isNeedsUserInput(InteractResponse.parse({ ...nextAction, needsUserInput: false }))).toBe(
      false,
    );
  });

  it('accepts finish with a final answer', () => {
    const parsed = NextActionResponse.parse({
      ...nextAction,
      action: 'finish("Found 3 results")',
      actionDetails: { name: 'finish', args: { message: 'Found 3 results' } },
      status: 'completed',
      result: 'Found 3 results',
    });
    expect(parsed.result).toBe('Found 3 results');
  });

  it('rejects an action outside the grammar and details that disagree with it', () => {
    expect(
      fieldErrors(NextActionResponse, { ...nextAction, action: 'clik(14)' })['action']?.[0],
    ).toMatch(/^not a valid action: unknown action "clik"/);
    expect(fieldErrors(NextActionResponse, { ...nextAction, action: 'click(15)' })).toStrictEqual({
      actionDetails: ['actionDetails does not match action click(15)'],
    });
    const { actionDetails: _details, ...withoutDetails } = nextAction;
    expect(fieldErrors(NextActionResponse, withoutDetails)).toStrictEqual({
      actionDetails: ['action and actionDetails are sent together'],
    });
  });

  it('omits the action only when asking for page state', () => {
    const { action: _action, actionDetails: _details, ...bare } = nextAction;
    expect(fieldErrors(NextActionResponse, bare)).toStrictEqual({
      action: [
        'action is required unless the response sets needs_full_dom, needs_screenshot or needs_snapshot',
      ],
    });
    const fullDom = NextActionResponse.parse({ ...bare, needs_full_dom: true });
    expect(requestsPageState(fullDom)).toBe(true);
    const screenshot = NextActionResponse.parse({ ...bare, needs_screenshot: true });
    expect(requestsPageState(screenshot)).toBe(true);
    expect(
      fieldErrors(NextActionResponse, {
        ...bare,
        needs_screenshot: true,
        actions: [{ action: 'wait(1)', description: 'x', index: 0 }],
      }),
    ).toStrictEqual({ actions: ['a response asking for page state carries no chain'] });
    const snapshot = NextActionResponse.parse({
      ...bare,
      needs_snapshot: { mode: 'content', grep: 'article|section.content' },
    });
    expect(requestsPageState(snapshot)).toBe(true);
    expect(requestsPageState(NextActionResponse.parse(nextAction))).toBe(false);
  });

  it('enforces the chain rules', () => {
    const chain = (actions: { action: string; index: number }[], extra = {}) =>
      fieldErrors(NextActionResponse, {
        ...nextAction,
        action: actions[0]?.action,
        actionDetails: undefined,
        actions: actions.map((a) => ({ ...a, description: 'step' })),
        ...extra,
      });
    expect(chain([{ action: 'click(1)', index: 0 }])).toStrictEqual({
      actionDetails: ['action and actionDetails are sent together'],
    });
    const errors = fieldErrors(NextActionResponse, {
      ...nextAction,
      actions: [
        { action: 'setValue(1, "x")', description: 'a', index: 0 },
        { action: 'finish()', description: 'b', index: 1 },
        { action: 'navigate("https://x.example")', description: 'c', index: 5 },
        { action: 'clickAt(10, 20)', description: 'd', index: 3 },
      ],
      chainMetadata: { totalActions: 2, safeToChain: true },
    });
    expect(errors).toStrictEqual({
      action: ['action must equal actions[0].action when a chain is sent'],
      'actions.1.action': ['finish cannot be chained'],
      'actions.2.index': ['chain indexes run 0, 1, 2…; expected 2'],
      'actions.2.action': ['navigate cannot be chained'],
      // Its point comes from a screenshot the chain's earlier actions may have made stale.
      'actions.3.action': ['clickAt cannot be chained'],
      'chainMetadata.totalActions': ['must equal actions.length (4)'],
    });
    expect(
      fieldErrors(NextActionResponse, {
        ...nextAction,
        chainMetadata: { totalActions: 1, safeToChain: true },
      }),
    ).toStrictEqual({ actions: ['chainMetadata is only sent with actions'] });
  });

  it('requires taskId, sessionId, stepIndex and a known status', () => {
    const errors = fieldErrors(NextActionResponse, {
      thought: 'x',
      action: 'goBack()',
      actionDetails: { name: 'goBack', args: {} },
      status: 'running',
    });
    expect(Object.keys(errors).sort()).toStrictEqual([
      'sessionId',
      'status',
      'stepIndex',
      'taskId',
    ]);
  });
});

describe('ActiveTaskResponse, HealthResponse, WhoAmIResponse', () => {
  it('parses the spec recovery example (with a UUID task id)', () => {
    const parsed = ActiveTaskResponse.parse({
      taskId: TASK_ID,
      query: 'add a new patient',
      status: 'executing',
      currentStepIndex: 2,
      createdAt: '2024-01-15T10:30:00Z',
      updatedAt: '2024-01-15T10:31:00.123+01:00',
      url: 'https://app.example.com/patients',
    });
    expect(parsed.currentStepIndex).toBe(2);
    expect(
      Object.keys(fieldErrors(ActiveTaskResponse, { taskId: 'abc-123', query: 'q' })).sort(),
    ).toStrictEqual(['createdAt', 'currentStepIndex', 'status', 'taskId', 'updatedAt']);
  });

  it('parses health and whoami bodies', () => {
    expect(
      HealthResponse.parse({
        status: 'degraded',
        store: 'libsql',
        version: '0.0.0',
        uptimeSeconds: 12,
        storeLatencyMs: 0.42,
      }).status,
    ).toBe('degraded');
    expect(
      fieldErrors(HealthResponse, {
        status: 'ok',
        store: 'postgres',
        version: '1',
        uptimeSeconds: 1,
        storeLatencyMs: 1,
      }),
    ).toHaveProperty(['store']);
    expect(
      WhoAmIResponse.parse({
        tenantId: 't1',
        tenantName: 'Acme',
        userId: 'u1',
        role: 'admin',
        store: 'mongodb',
      }).role,
    ).toBe('admin');
  });
});
