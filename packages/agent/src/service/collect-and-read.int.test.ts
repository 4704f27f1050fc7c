// Streaming extraction (docs/specs.md, "streaming extraction") and page reading (docs/specs.md,
// "page snapshots") through the whole graph: the model's collect items are stored inside the same
// request, deduplicated, counted towards the task's collectLimit, and never reach the state or a
// prompt; a readPage answer pauses the task with needs_snapshot and the graph reasons again on the
// snapshot the client sends.
import type { SemanticNodeV3, TaskEvent } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const board = (page: number): SemanticNodeV3[] => [
  { i: `card-${page}-1`, r: 'link', n: `Job card ${page}.1` },
  { i: `card-${page}-2`, r: 'link', n: `Job card ${page}.2` },
  { i: `next-${page}`, r: 'link', n: 'Next page' },
];

// Salaries appear in the collected data only, never on the page tree: if one shows up in a
// prompt or in the graph state, collected data leaked into the context.
const job = (id: string, salary: string) => ({
  type: 'job',
  data: { jobId: id, title: `Engineer ${id}`, company: 'Acme', salary },
});

const noAction = { thought: '', confidence: 0.9, chain: null };

describe('collect', () => {
  it('stores items in the request, skips duplicates across pages and finishes at collectLimit', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep('on the board'),
        {
          node: 'planning',
          output: {
            goal: 'collect jobs',
            steps: [
              { description: 'Collect the jobs of page 1', refinable: false },
              { description: 'Collect the jobs of page 2', refinable: false },
              { description: 'Collect the jobs of page 3', refinable: false },
            ],
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'Three jobs on page 1; next page.',
            action: 'click("next-1")',
            collect: [job('J-1', '$111,001'), job('J-2', '$111,002'), job('J-3', '$111,003')],
          },
        },
        {
          node: 'outcome_prediction',
          output: { description: 'page 2 loads', urlShouldChange: true, nextGoal: null },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'Page 2 repeats J-3.',
            action: 'click("next-2")',
            collect: [job('J-3', '$111,003'), job('J-4', '$111,004')],
          },
        },
        {
          node: 'outcome_prediction',
          output: { description: 'page 3 loads', urlShouldChange: true, nextGoal: null },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'One more job on page 3.',
            action: 'click("card-3-1")',
            collect: [job('J-5', '$111,005'), job('J-6', '$111,006')],
          },
        },
      ],
    });

    const first = await agent.act(
      pageRequest('https://jobs.example/?page=1', board(1), { query: 'Extract 5 job listings' }),
    );
    expect(first.action).toBe('click("next-1")');
    expect(first.collected).toEqual({ job: 3 });
    expect(first.collectedItems).toBeUndefined(); // items only on the response that ends the task
    const task = await agent.store.tasks.get(agent.caller.tenantId, first.taskId);
    expect(task?.collectLimit).toBe(5);

    const next = (page: number) =>
      pageRequest(`https://jobs.example/?page=${page}`, board(page), {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'success',
        clientObservations: { didUrlChange: true },
      });
    const second = await agent.act(next(2));
    expect(second.action).toBe('click("next-2")');
    expect(second.collected).toEqual({ job: 4 });
    // Duplicates are a count, not one line each (the thought keeps the batch's one line).
    expect(second.duplicatesSkipped).toBe(1);
    expect(second.thought).not.toContain('Duplicate job skipped');
    expect(second.thought).toContain('1 duplicate');

    const events: TaskEvent[] = [];
    const unsubscribe = agent.events.subscribe(agent.caller.tenantId, first.taskId, (e) => {
      events.push(e);
    });
    const third = await agent.act(next(3));
    unsubscribe();

    // The fifth unique item reached the limit: the task finished instead of clicking on, and
    // the sixth item of the same answer was not stored.
    expect(third.status).toBe('completed');
    expect(third.action).toBe('finish("Collected 5 items.")');
    // The server's finish, from the stored count: no critic call reviews it.
    expect(agent.scripted?.callsFor('critic') ?? []).toHaveLength(0);
    expect(third.collected).toEqual({ job: 5 });
    // The result carries the items themselves, grouped by type (docs/specs.md,
    // "TaskResult.collected").
    expect(third.collectedItems).toEqual({
      job: ['J-1', 'J-2', 'J-3', 'J-4', 'J-5'].map((id) => job(id, `$111,00${id.slice(2)}`).data),
    });

    const items = await agent.store.collectedItems.list(agent.caller.tenantId, first.taskId);
    expect(items.map((i) => i.data.jobId)).toEqual(['J-1', 'J-2', 'J-3', 'J-4', 'J-5']);
    expect(items.every((i) => i.sourceUrl?.startsWith('https://jobs.example/'))).toBe(true);

    // Counts only in the prompts and the checkpointed state; the items stay in the store.
    const prompts = agent.scripted?.callsFor('action_generation').map((c) => c.prompt) ?? [];
    expect(prompts).toHaveLength(3);
    expect(prompts[1]).toContain('Collected so far (stored, not shown): 3/5 job items.');
    expect(prompts[2]).toContain('4/5 job items.');
    for (const prompt of prompts) expect(prompt).not.toMatch(/\$111,00\d/);
    const state = await agent.service.graph.getState({
      configurable: { thread_id: first.taskId },
    });
    expect(JSON.stringify(state.values)).not.toMatch(/\$111,00\d/);
    expect(state.values.collectedCounts).toEqual({ job: 5 });

    // Live viewers saw the new items (never the duplicate), the step and the end.
    expect(events.filter((e) => e.event === 'collected').map((e) => e.count)).toEqual([5]);
    expect(events.some((e) => e.event === 'step' && e.status === 'success')).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'done', status: 'completed', counts: { job: 5 } });
  });

  it("honours the request's collectLimit and ends with the items grouped by type", async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep('on the directory'),
        {
          node: 'planning',
          output: {
            goal: 'collect companies and their jobs',
            steps: [{ description: 'Collect what the page lists', refinable: false }],
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'Two companies and a job; next page.',
            action: 'click("next-1")',
            collect: [
              { type: 'company', data: { id: 'C-1', name: 'Acme' } },
              job('J-1', '$111,001'),
              { type: 'company', data: { id: 'C-2', name: 'Globex' } },
              job('J-2', '$111,002'),
            ],
          },
        },
      ],
    });
    // The query names no number: the limit comes from the request field alone.
    const done = await agent.act(
      pageRequest('https://dir.example/', board(1), {
        query: 'Collect the companies and jobs on this directory',
        collectLimit: 3,
      }),
    );
    const task = await agent.store.tasks.get(agent.caller.tenantId, done.taskId);
    expect(task?.collectLimit).toBe(3);
    expect(done.status).toBe('completed');
    expect(done.collected).toEqual({ company: 2, job: 1 });
    expect(done.collectedItems).toEqual({
      company: [
        { id: 'C-1', name: 'Acme' },
        { id: 'C-2', name: 'Globex' },
      ],
      job: [job('J-1', '$111,001').data],
    });
  });
});

describe('reading the page', () => {
  const docs: SemanticNodeV3[] = [{ i: 'nav-auth', r: 'link', n: 'Authentication' }];
  const outline =
    'PAGE: Docs\nOUTLINE:\nmain "Docs" main\n  section "Authentication" [120 words] main/section#auth';

  it('asks for an outline, then content, then answers from it without verifying anything', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep('read the docs'),
        {
          node: 'planning',
          output: {
            goal: 'summarise auth',
            steps: [{ description: 'Read the authentication section', refinable: false }],
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'I need the page structure.',
            action: 'wait(1)',
            readPage: { mode: 'outline' },
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'The auth section is main/section#auth.',
            action: 'wait(1)',
            readPage: { mode: 'content', grep: 'section#auth' },
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            thought: 'The section says API keys go in a Bearer header.',
            action: 'finish("Send your API key as a Bearer token.")',
          },
        },
      ],
    });

    const first = await agent.act(
      pageRequest('https://docs.example/', docs, { query: 'How do I authenticate to the API?' }),
    );
    expect(first.action).toBeUndefined();
    expect(first.needs_snapshot).toEqual({ mode: 'outline' });

    const continuation = {
      taskId: first.taskId,
      sessionId: first.sessionId,
      lastActionStatus: 'success' as const,
    };
    const second = await agent.act(
      pageRequest('https://docs.example/', docs, {
        ...continuation,
        snapshot: { mode: 'outline', text: outline },
      }),
    );
    expect(second.action).toBeUndefined();
    expect(second.needs_snapshot).toEqual({
      mode: 'content',
      format: 'markdown',
      grep: 'section#auth',
    });

    const third = await agent.act(
      pageRequest('https://docs.example/', docs, {
        ...continuation,
        snapshot: {
          mode: 'content',
          text: '## Authentication\nSend your API key as a Bearer token.',
        },
      }),
    );
    expect(third.status).toBe('completed');
    expect(third.action).toBe('finish("Send your API key as a Bearer token.")');

    const calls = agent.scripted?.callsFor('action_generation') ?? [];
    // The snapshot reaches the model as untrusted page content.
    expect(calls[1]?.prompt).toMatch(
      /<page_content untrusted="true">[\s\S]*section "Authentication"[\s\S]*<\/page_content>/,
    );
    expect(calls[2]?.prompt).toContain('Send your API key as a Bearer token.');
    // Nothing was executed, so nothing was verified or recorded as an action but the answer.
    expect(agent.scripted?.callsFor('verification')).toHaveLength(0);
    const actions = await agent.store.taskActions.listByTask(agent.caller.tenantId, first.taskId);
    expect(actions.map((a) => a.action)).toEqual([
      'finish("Send your API key as a Bearer token.")',
    ]);
  });

  it('stops honouring page reads after the per-step limit and acts instead', async () => {
    const read = {
      node: 'action_generation' as const,
      output: { ...noAction, action: 'click("nav-auth")', readPage: { mode: 'outline' } },
    };
    const agent = await createTestAgent({
      limits: { maxPageReadsPerStep: 1 },
      steps: [
        pageContextStep('page'),
        {
          node: 'planning',
          output: {
            goal: 'open the token docs',
            steps: [{ description: 'Find the page about tokens', refinable: false }],
          },
        },
        read,
        read,
        {
          node: 'outcome_prediction',
          output: { description: 'auth opens', urlShouldChange: true, nextGoal: null },
        },
      ],
    });
    const first = await agent.act(
      pageRequest('https://docs.example/', docs, {
        query: 'Find out how API tokens work, then open the page that explains them',
      }),
    );
    expect(first.needs_snapshot).toEqual({ mode: 'outline' });
    const second = await agent.act(
      pageRequest('https://docs.example/', docs, {
        taskId: first.taskId,
        sessionId: first.sessionId,
        snapshot: { mode: 'outline', text: outline },
      }),
    );
    expect(second.needs_snapshot).toBeUndefined();
    expect(second.action).toBe('click("nav-auth")');
  });
});
