import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../deps';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { domHash, semanticSkeleton } from '../../page/page-state';
import { costOf, nodeDeps, pageOf, planOf, stateWith } from '../../testing/state';
import type { WebSearch, WebSearchQuery, WebSearchResult } from '../../web-search/port';
import { ACTION_GENERATION_ATTEMPTS, actionGeneration, planProgress, renderPlan } from './node';
import { actionGenerationSystem } from './prompt';

const URL = 'https://crm.example/contacts/new';
const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'last', r: 'inp', n: 'Last name' },
  { i: 'email', r: 'inp', n: 'Email' },
  { i: 'save', r: 'btn', n: 'Save' },
  { i: 'delete', r: 'btn', n: 'Delete', s: 'disabled' },
];
const page = pageOf(form, { url: URL });
const USAGE = { inputTokens: 100, outputTokens: 20 };

const state = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: 'Add a contact named Jas Doe',
    complexity: 'COMPLEX',
    plan: planOf(['Fill in the contact', 'Click Save']),
    page,
    ...extra,
  });

type Answer = {
  thought?: string;
  chain?: { action: string; description: string; canFail?: boolean }[] | null;
  readPage?: {
    mode: 'outline' | 'content';
    grep?: string | null;
    selector?: string | null;
  } | null;
  collect?: { type?: string | null; data: Record<string, unknown> }[] | null;
};

const answer = (action: string, extra: Answer = {}): ScriptedStep => ({
  node: 'action_generation',
  output: { thought: 'Next step', action, chain: null, confidence: 0.9, ...extra },
  usage: USAGE,
});

const tokensOf = (calls: number) => ({
  input: 100 * calls,
  output: 20 * calls,
  saved: 0,
  calls,
  costMicroUsd: calls * costOf(100, 20),
});

const field = (id: string, text: string, description = id) => ({
  action: `setValue("${id}", "${text}")`,
  description,
});

describe('renderPlan and planProgress', () => {
  it('the plan reads the same at every step; the progress says where the task is', () => {
    const first = state({ plan: planOf(['Open', 'Fill', 'Save'], 0), currentStepIndex: 0 });
    const second = state({ plan: planOf(['Open', 'Fill', 'Save'], 1), currentStepIndex: 1 });
    // A stable prefix for the provider's prompt cache.
    expect(renderPlan(second)).toBe(renderPlan(first));
    expect(renderPlan(second)).toBe('1. Open\n2. Fill\n3. Save');
    expect(planProgress(second)).toBe('now at step 2 (Fill); steps 1 done');
    expect(planProgress(first)).toBe('now at step 1 (Open); no step done yet');
    expect(renderPlan(state({ plan: null }))).toBe('(no plan)');
    expect(planProgress(state({ plan: null }))).toBe('');
  });
});

describe('action_generation: one action', () => {
  it('sends a valid action with its fingerprints and the call counted', async () => {
    const llm = createScriptedLlm([answer('click("save")', { thought: 'Save it' })], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());

    llm.assertDone();
    const [call] = llm.callsFor('action_generation');
    expect(call).toMatchObject({ actionType: 'ACTION_GENERATION', system: actionGenerationSystem });
    expect(call?.prompt).toContain('User goal: Add a contact named Jas Doe');
    expect(call?.prompt).not.toContain('Correction:');
    expect(update).toEqual({
      tokens: tokensOf(1),
      collectedCounts: {},
      duplicatesSkipped: 0,
      pending: {
        stepIndex: 0,
        thought: 'Save it',
        action: { name: 'click', args: { id: 'save' } },
        chain: null,
        expectedOutcome: null,
        beforeState: { url: URL, domHash: domHash(form), semanticSkeleton: semanticSkeleton(form) },
        taskActionId: null,
        source: 'action_generation',
        targets: [expect.objectContaining({ id: 'save', role: 'btn', name: 'Save' }) as object],
      },
      // Kept for the critic, which reviews proposals the model is unsure of.
      actionConfidence: 0.9,
    });
  });

  it('labels the call REFINEMENT when the plan step is refinable', async () => {
    const plan = planOf(['Click Save']);
    const refinable = { ...plan, steps: plan.steps.map((s) => ({ ...s, refinable: true })) };
    const llm = createScriptedLlm([answer('click("save")')], { zeroLatency: true });
    await actionGeneration(nodeDeps({ llm }))(state({ plan: refinable }));
    expect(llm.callsFor('action_generation')[0]?.actionType).toBe('REFINEMENT');
  });

  it('sends finish() as the pending action, for finalize', async () => {
    const llm = createScriptedLlm([answer('finish("Jas Doe was added")')], { zeroLatency: true });
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update).toMatchObject({
      pending: { action: { name: 'finish', args: { message: 'Jas Doe was added' } }, targets: [] },
    });
  });
});

describe('action_generation: invalid actions', () => {
  it(`gives the model ${ACTION_GENERATION_ATTEMPTS} answers and explains a rejected one in the next prompt`, async () => {
    expect(ACTION_GENERATION_ATTEMPTS).toBe(2);
    const llm = createScriptedLlm([answer('click("ghost")'), answer('click("save")')], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());

    llm.assertDone();
    const [, second] = llm.callsFor('action_generation');
    expect(second?.prompt).toContain(
      'Correction: Your previous answer click("ghost") was rejected: element id "ghost" is not ' +
        'on the current page. Answer with a valid action on a listed id.',
    );
    expect(update).toMatchObject({
      tokens: tokensOf(2),
      pending: { action: { name: 'click', args: { id: 'save' } } },
    });
  });

  it('refuses with INVALID_ACTION and fails the task after two invalid answers', async () => {
    const llm = createScriptedLlm([answer('click("delete")'), answer('clik("save")')], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());

    llm.assertDone();
    expect(llm.callsFor('action_generation')[1]?.prompt).toContain(
      'Your previous answer click("delete") was rejected: element "Delete" is disabled.',
    );
    expect(update).toEqual({
      tokens: tokensOf(2),
      collectedCounts: {},
      duplicatesSkipped: 0,
      outcome: {
        kind: 'refused',
        code: 'INVALID_ACTION',
        message: expect.stringMatching(
          /^The model kept producing invalid actions: clik\("save"\) was rejected: .+\.$/,
        ) as string,
        failTask: true,
      },
    });
    expect(update.pending).toBeUndefined();
  });

  it("says a step the task's own rules refused was stopped for safety", async () => {
    const llm = createScriptedLlm(
      [answer('navigate("https://evil.example/x")'), answer('navigate("https://evil.example/x")')],
      { zeroLatency: true },
    );
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update.outcome).toMatchObject({
      kind: 'refused',
      code: 'INVALID_ACTION',
      failTask: true,
      message: expect.stringMatching(
        /^Stopped for safety: the agent kept proposing navigate\("https:\/\/evil\.example\/x"\), which this task may not do \(.*evil\.example.*\)\. If the page asked for it, it may be trying to misuse the agent\.$/,
      ) as string,
    });
  });
});

describe('action_generation: reading the page', () => {
  it('asks the client for a snapshot instead of acting (content reads as Markdown)', async () => {
    const llm = createScriptedLlm(
      [
        answer('wait(1)', {
          thought: 'I need the prices',
          readPage: { mode: 'content', grep: 'Pricing', selector: null },
        }),
      ],
      { zeroLatency: true },
    );
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update).toEqual({
      tokens: tokensOf(1),
      collectedCounts: {},
      duplicatesSkipped: 0,
      pageRequest: { mode: 'content', format: 'markdown', grep: 'Pricing' },
      pageReadsThisStep: 1,
      outcome: { kind: 'read_page', thought: 'I need the prices' },
      actionConfidence: 0.9,
    });
  });

  it('an outline read carries no format, and the accompanying action is not even checked', async () => {
    const llm = createScriptedLlm(
      [answer('click("ghost")', { readPage: { mode: 'outline', grep: null, selector: null } })],
      { zeroLatency: true },
    );
    const update = await actionGeneration(nodeDeps({ llm }))(state({ pageReadsThisStep: 1 }));
    expect(update).toMatchObject({
      pageRequest: { mode: 'outline' },
      pageReadsThisStep: 2,
      outcome: { kind: 'read_page' },
    });
    expect(update.pageRequest).toEqual({ mode: 'outline' });
  });

  it('past limits.maxPageReadsPerStep the read is ignored and the action is sent', async () => {
    const read = { readPage: { mode: 'outline' as const } };
    const llm = createScriptedLlm([answer('click("save")', read)], { zeroLatency: true });
    const update = await actionGeneration(nodeDeps({ llm }))(state({ pageReadsThisStep: 2 }));
    expect(update).toMatchObject({ pending: { action: { name: 'click', args: { id: 'save' } } } });
    expect(update.pageRequest).toBeUndefined();
    expect(update.outcome).toBeUndefined();

    const none = createScriptedLlm([answer('click("save")', read)], { zeroLatency: true });
    const noReads = nodeDeps({ llm: none, limits: { ...DEFAULT_LIMITS, maxPageReadsPerStep: 0 } });
    const capped = await actionGeneration(noReads)(state());
    expect(capped.pageRequest).toBeUndefined();
    expect(capped).toMatchObject({ pending: { action: { name: 'click' } } });
  });
});

describe('action_generation: chains', () => {
  const fields = [
    field('first', 'Jas', 'First name'),
    { ...field('last', 'Doe', 'Last name'), canFail: true },
    field('email', 'jas@example.com', 'Email'),
  ];

  it('sends a safe chain of form fields, starting with the action', async () => {
    const llm = createScriptedLlm([answer('setValue("first", "Jas")', { chain: fields })], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update).toMatchObject({
      pending: {
        action: { name: 'setValue', args: { id: 'first', text: 'Jas' } },
        chain: {
          actions: [
            { action: 'setValue("first", "Jas")', description: 'First name', index: 0 },
            {
              action: 'setValue("last", "Doe")',
              description: 'Last name',
              index: 1,
              canFail: true,
            },
            { action: 'setValue("email", "jas@example.com")', description: 'Email', index: 2 },
          ],
          metadata: { totalActions: 3, safeToChain: true, estimatedDuration: 1800 },
        },
        targets: [
          { id: 'first', role: 'inp', name: 'First name' },
          { id: 'last', role: 'inp', name: 'Last name' },
          { id: 'email', role: 'inp', name: 'Email' },
        ],
      },
    });
  });

  it('keeps the fields together when only the button that ends the chain is refused', async () => {
    // Delete is disabled: it may not end the chain, but the three fields still go in one.
    const chain = [...fields, { action: 'click("delete")', description: 'Delete' }];
    const llm = createScriptedLlm([answer('setValue("first", "Jas")', { chain })], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update).toMatchObject({
      pending: {
        chain: {
          actions: [
            { action: 'setValue("first", "Jas")' },
            { action: 'setValue("last", "Doe")' },
            { action: 'setValue("email", "jas@example.com")' },
          ],
        },
      },
    });
  });

  it('keeps at most limits.maxChainLength actions', async () => {
    const llm = createScriptedLlm([answer('setValue("first", "Jas")', { chain: fields })], {
      zeroLatency: true,
    });
    const deps = nodeDeps({ llm, limits: { ...DEFAULT_LIMITS, maxChainLength: 2 } });
    const update = await actionGeneration(deps)(state());
    expect(update).toMatchObject({
      pending: {
        chain: {
          actions: [{ action: 'setValue("first", "Jas")' }, { action: 'setValue("last", "Doe")' }],
          metadata: { totalActions: 2 },
        },
      },
    });
  });

  it.each([
    {
      why: 'it submits before its last action (a button mid-chain)',
      chain: [
        field('first', 'Jas'),
        { action: 'click("save")', description: 'Save' },
        field('last', 'Doe'),
      ],
    },
    {
      why: 'an item names an element not on the page',
      chain: [field('first', 'Jas'), field('ghost', 'x')],
    },
    {
      why: 'an item is outside the grammar',
      chain: [field('first', 'Jas'), { action: 'setValue(last)', description: 'Last' }],
    },
    {
      why: 'it does not start with the action',
      chain: [field('last', 'Doe'), field('first', 'Jas')],
    },
    { why: 'it holds a single action', chain: [field('first', 'Jas')] },
  ])('sends the first action alone when the chain is refused: $why', async ({ chain }) => {
    const llm = createScriptedLlm([answer('setValue("first", "Jas")', { chain })], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    expect(update).toMatchObject({
      pending: {
        action: { name: 'setValue', args: { id: 'first', text: 'Jas' } },
        chain: null,
        targets: [{ id: 'first', role: 'inp', name: 'First name' }],
      },
    });
  });
});

describe('action_generation: googleSearch', () => {
  /** The Tavily boundary: records what was asked and answers with `results`. */
  function fakeSearch(results: WebSearchResult[]): WebSearch & { queries: WebSearchQuery[] } {
    const queries: WebSearchQuery[] = [];
    return {
      enabled: true,
      queries,
      search: (query) => {
        queries.push(query);
        return Promise.resolve({ results });
      },
    };
  }
  const vatPage: WebSearchResult = {
    title: 'Acme legal notice',
    url: 'https://crm.example/legal',
    content: 'Acme SAS, VAT FR 12 345 678 901',
    score: 0.9,
  };

  it('runs the search on the server and sends wait(1), with the results in the thought', async () => {
    const webSearch = fakeSearch([vatPage]);
    const llm = createScriptedLlm(
      [
        answer('googleSearch("acme vat number")', { thought: 'Look it up' }),
        {
          node: 'web_search',
          output: {
            solved: true,
            answer: 'FR 12 345 678 901',
            shouldAskUser: false,
            refinedQuery: null,
            reason: 'The legal notice states it.',
          },
          usage: { inputTokens: 50, outputTokens: 10 },
        },
      ],
      { zeroLatency: true },
    );
    const update = await actionGeneration(nodeDeps({ llm, webSearch }))(state());
    // The search's judge call counts in the task's totals, like the action call.
    expect(update.tokens).toEqual({
      input: 150,
      output: 30,
      saved: 0,
      calls: 2,
      costMicroUsd: costOf(100, 20) + costOf(50, 10),
    });

    llm.assertDone();
    // Restricted to the site the user is on, one attempt only.
    expect(webSearch.queries).toEqual([
      { query: 'acme vat number', domain: 'crm.example', maxResults: 5 },
    ]);
    const summary = update.webSearchSummary ?? '';
    expect(summary).toContain('Answer: FR 12 345 678 901');
    expect(summary).toContain('https://crm.example/legal');
    expect(update).toMatchObject({
      pending: {
        action: { name: 'wait', args: { seconds: 1 } },
        thought: `Look it up\nSearch results for "acme vat number":\n${summary}`,
        source: 'action_generation',
      },
    });
  });

  it('with nothing found, the thought says so and the client still waits', async () => {
    const llm = createScriptedLlm([answer('googleSearch("acme vat number")')], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(state());
    llm.assertDone();
    expect(update).toMatchObject({
      webSearchSummary: '',
      pending: {
        action: { name: 'wait', args: { seconds: 1 } },
        thought: 'Next step\nSearch results for "acme vat number":\n(no results)',
      },
    });
  });
});

describe('action_generation: collect without a collect service', () => {
  // Storing items and finishing at the collect limit need the real CollectService over a
  // store: service/collect-and-read.int.test.ts covers them through the whole graph.
  it('ignores collect items and keeps the extraction rules out of the system prompt', async () => {
    const items = [{ type: 'job', data: { jobId: 'J-1', title: 'Engineer' } }];
    const llm = createScriptedLlm([answer('click("save")', { collect: items })], {
      zeroLatency: true,
    });
    const update = await actionGeneration(nodeDeps({ llm }))(
      state({ query: 'Extract 5 job listings', collectLimit: 5 }),
    );
    expect(llm.callsFor('action_generation')[0]?.system).toBe(actionGenerationSystem);
    expect(update).toMatchObject({
      collectedCounts: {},
      duplicatesSkipped: 0,
      pending: { thought: 'Next step', action: { name: 'click', args: { id: 'save' } } },
    });
  });
});
