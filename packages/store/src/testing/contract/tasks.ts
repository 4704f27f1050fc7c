// Tasks (defaults, patch round-trips, optimistic concurrency, listing) and task actions.
import {
  emptyTaskMetrics,
  type CorrectionRecord,
  type HierarchicalPlan,
  type Plan,
  type StoredChain,
  type TaskMetrics,
} from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { VersionConflictError, type NewTask, type Task } from '../../port';
import {
  actionInput,
  expectIso,
  isoAt,
  newTenant,
  tick,
  uniq,
  useStore,
  type MakeStore,
} from './harness';

const plan: Plan = {
  goal: 'buy shoes',
  steps: [
    { index: 0, description: 'open the shop', status: 'completed' },
    {
      index: 1,
      description: 'search "shoes"',
      status: 'active',
      refinable: true,
      contingencies: [{ condition: 'a cookie banner shows', action: 'click(accept)' }],
    },
  ],
  currentStepIndex: 1,
  createdAt: '2024-05-01T10:00:00.000Z',
};

const hierarchicalPlan: HierarchicalPlan = {
  subTasks: [
    {
      id: 'st-1',
      name: 'search',
      description: 'find the product',
      inputs: [],
      outputs: ['productUrl'],
      status: 'active',
      stepIndexes: [0, 1],
    },
  ],
  currentSubTaskIndex: 0,
};

const corrections: CorrectionRecord[] = [
  {
    id: 'c1',
    stepIndex: 1,
    attempt: 1,
    failedAction: 'click(7)',
    correctedAction: 'click(9)',
    strategy: 'ALTERNATIVE_SELECTOR',
    reason: 'element 7 was hidden',
    succeeded: true,
    createdAt: '2024-05-01T10:01:00.000Z',
  },
];

const metrics: TaskMetrics = {
  ...emptyTaskMetrics(),
  totalSteps: 3,
  totalRequests: 4,
  totalDurationMs: 1234.5,
  totalTokens: 900,
  inputTokens: 800,
  outputTokens: 100,
  costMicroUsd: 4200,
  verificationsPassed: 2,
  corrections: 1,
};

const lastChain: StoredChain = {
  actions: [
    { action: 'setValue(3, "shoes")', description: 'type', index: 0 },
    { action: 'click(4)', description: 'submit', index: 1, canFail: true },
  ],
  metadata: { totalActions: 2, estimatedDuration: 800, safeToChain: true },
  stepIndex: 1,
};

export function tasksContract(makeStore: MakeStore): void {
  describe('tasks', () => {
    const store = useStore(makeStore);

    const newTask = (tenantId: string, input: Partial<NewTask> = {}): Promise<Task> =>
      store().tasks.create(tenantId, {
        userId: 'u1',
        url: 'https://shop.test/',
        query: 'buy shoes',
        ...input,
      });

    it('creates with defaults', async () => {
      const tenantId = await newTenant(store());
      const task = await newTask(tenantId);
      expect(task).toMatchObject({
        tenantId,
        userId: 'u1',
        sessionId: null,
        url: 'https://shop.test/',
        query: 'buy shoes',
        status: 'active',
        complexity: null,
        plan: null,
        hierarchicalPlan: null,
        currentStepIndex: 0,
        corrections: [],
        metrics: emptyTaskMetrics(),
        lastChain: null,
        webSearchResult: null,
        result: null,
        collectLimit: null,
        consecutiveFailures: 0,
        consecutiveSuccessWithoutTaskComplete: 0,
      });
      expect(Number.isInteger(task.version)).toBe(true);
      expectIso(task.createdAt);
      expectIso(task.updatedAt);
      expect(await store().tasks.get(tenantId, task.id)).toEqual(task);
      expect(await store().tasks.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('creates with the optional fields given', async () => {
      const tenantId = await newTenant(store());
      const id = uniq('task');
      const task = await newTask(tenantId, {
        id,
        sessionId: 's1',
        status: 'executing',
        complexity: 'COMPLEX',
        plan,
        hierarchicalPlan,
        currentStepIndex: 1,
        webSearchResult: { summary: 'shoes are sold here', sources: ['https://a.test'] },
        collectLimit: 25,
        metrics,
        corrections,
        lastChain,
        result: 'half way',
        consecutiveFailures: 2,
        consecutiveSuccessWithoutTaskComplete: 3,
      });
      expect(task).toMatchObject({
        id,
        sessionId: 's1',
        status: 'executing',
        complexity: 'COMPLEX',
        plan,
        hierarchicalPlan,
        currentStepIndex: 1,
        webSearchResult: { summary: 'shoes are sold here', sources: ['https://a.test'] },
        collectLimit: 25,
        metrics,
        corrections,
        lastChain,
        result: 'half way',
        consecutiveFailures: 2,
        consecutiveSuccessWithoutTaskComplete: 3,
        version: 1,
      });
      expect(await store().tasks.get(tenantId, id)).toEqual(task);
    });

    it('round-trips a patch and bumps the version', async () => {
      const tenantId = await newTenant(store());
      const task = await newTask(tenantId);
      await tick();
      const patch = {
        status: 'executing' as const,
        complexity: 'SIMPLE' as const,
        plan,
        hierarchicalPlan,
        currentStepIndex: 1,
        corrections,
        metrics,
        lastChain,
        webSearchResult: ['any', { json: true }, 3],
        result: 'partial',
        collectLimit: 10,
        consecutiveFailures: 2,
        consecutiveSuccessWithoutTaskComplete: 3,
        url: 'https://shop.test/search',
        query: 'buy red shoes',
        sessionId: 's9',
      };
      const updated = await store().tasks.update(tenantId, task.id, patch);
      expect(updated).toMatchObject({ ...patch, id: task.id, version: task.version + 1 });
      expect(updated?.createdAt).toBe(task.createdAt);
      expect(updated && updated.updatedAt > task.updatedAt).toBe(true);
      expect(await store().tasks.get(tenantId, task.id)).toEqual(updated);
    });

    it('leaves fields out of the patch (or undefined in it) unchanged, and sets nulls', async () => {
      const tenantId = await newTenant(store());
      const task = await newTask(tenantId, { plan, complexity: 'COMPLEX' });
      const updated = await store().tasks.update(tenantId, task.id, {
        status: 'executing',
        plan: undefined,
      });
      expect(updated).toMatchObject({ plan, complexity: 'COMPLEX', status: 'executing' });
      const cleared = await store().tasks.update(tenantId, task.id, {
        plan: null,
        complexity: null,
      });
      expect(cleared).toMatchObject({ plan: null, complexity: null, status: 'executing' });
      expect(cleared?.version).toBe(task.version + 2);
    });

    it('applies ifVersion as compare-and-set', async () => {
      const tenantId = await newTenant(store());
      const task = await newTask(tenantId);
      const advanced = await store().tasks.update(
        tenantId,
        task.id,
        { currentStepIndex: 1 },
        { ifVersion: task.version },
      );
      expect(advanced?.version).toBe(task.version + 1);
      await expect(
        store().tasks.update(
          tenantId,
          task.id,
          { currentStepIndex: 5 },
          { ifVersion: task.version },
        ),
      ).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store().tasks.get(tenantId, task.id)).toEqual(advanced);
      expect(
        await store().tasks.update(tenantId, uniq('missing'), { result: 'x' }, { ifVersion: 1 }),
      ).toBeNull();
      expect(await store().tasks.update(tenantId, uniq('missing'), { result: 'x' })).toBeNull();
    });

    it('lets exactly one of two concurrent ifVersion updates win', async () => {
      const tenantId = await newTenant(store());
      const task = await newTask(tenantId);
      const results = await Promise.allSettled(
        ['a', 'b'].map((result) =>
          store().tasks.update(tenantId, task.id, { result }, { ifVersion: task.version }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(VersionConflictError);
      expect((await store().tasks.get(tenantId, task.id))?.version).toBe(task.version + 1);
    });

    it('lists newest first with filters and cursor paging', async () => {
      const tenantId = await newTenant(store());
      const created: Task[] = [];
      for (let i = 0; i < 5; i += 1) {
        created.push(
          await newTask(tenantId, {
            userId: i % 2 === 0 ? 'u1' : 'u2',
            sessionId: i < 3 ? 's1' : 's2',
            status: i === 4 ? 'completed' : 'active',
          }),
        );
        await tick();
      }
      const newestFirst = [...created].reverse().map((t) => t.id);
      const all = await store().tasks.list(tenantId);
      expect(all.items.map((t) => t.id)).toEqual(newestFirst);
      expect(all.nextCursor).toBeNull();

      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const page = await store().tasks.list(tenantId, { limit: 2, cursor });
        pages.push(page.items.map((t) => t.id));
        cursor = page.nextCursor;
      } while (cursor !== null && pages.length < 10);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(newestFirst);

      const byUser = await store().tasks.list(tenantId, { userId: 'u2' });
      expect(byUser.items.map((t) => t.id)).toEqual([created[3]?.id, created[1]?.id]);
      const bySession = await store().tasks.list(tenantId, { sessionId: 's2' });
      expect(bySession.items.map((t) => t.id)).toEqual([created[4]?.id, created[3]?.id]);
      const completed = await store().tasks.list(tenantId, { status: ['completed'] });
      expect(completed.items.map((t) => t.id)).toEqual([created[4]?.id]);
      const live = await store().tasks.list(tenantId, {
        status: ['active', 'executing'],
        sessionId: 's1',
        userId: 'u1',
      });
      expect(live.items.map((t) => t.id)).toEqual([created[2]?.id, created[0]?.id]);

      const filteredPage = await store().tasks.list(tenantId, { status: ['active'], limit: 3 });
      expect(filteredPage.items).toHaveLength(3);
      const rest = await store().tasks.list(tenantId, {
        status: ['active'],
        limit: 3,
        cursor: filteredPage.nextCursor,
      });
      expect(rest.items.map((t) => t.id)).toEqual([created[0]?.id]);
      expect(rest.nextCursor).toBeNull();
    });

    it('finds the newest active task of a session, optionally on a URL', async () => {
      const tenantId = await newTenant(store());
      const done = await newTask(tenantId, { sessionId: 's1', status: 'completed' });
      await tick();
      const onA = await newTask(tenantId, { sessionId: 's1', url: 'https://a.test/' });
      await tick();
      const onB = await newTask(tenantId, {
        sessionId: 's1',
        url: 'https://b.test/',
        status: 'executing',
      });
      await newTask(tenantId, { sessionId: 's2' });

      expect((await store().tasks.findActive(tenantId, { sessionId: 's1' }))?.id).toBe(onB.id);
      expect(
        (await store().tasks.findActive(tenantId, { sessionId: 's1', url: 'https://a.test/' }))?.id,
      ).toBe(onA.id);
      expect(
        await store().tasks.findActive(tenantId, { sessionId: 's1', url: done.url }),
      ).toBeNull();
      await store().tasks.update(tenantId, onA.id, { status: 'failed' });
      // Paused on a question is live: the answer continues it.
      await store().tasks.update(tenantId, onB.id, { status: 'needs_user_input' });
      expect((await store().tasks.findActive(tenantId, { sessionId: 's1' }))?.id).toBe(onB.id);
      await store().tasks.update(tenantId, onB.id, { status: 'cancelled' });
      expect(await store().tasks.findActive(tenantId, { sessionId: 's1' })).toBeNull();
    });

    it('expires stale live tasks only', async () => {
      const tenantId = await newTenant(store());
      const active = await newTask(tenantId, { sessionId: 's1' });
      const executing = await newTask(tenantId, { sessionId: 's1', status: 'executing' });
      const asking = await newTask(tenantId, { sessionId: 's1', status: 'needs_user_input' });
      const completed = await newTask(tenantId, { sessionId: 's1', status: 'completed' });
      const cancelled = await newTask(tenantId, { sessionId: 's1', status: 'cancelled' });
      const otherSession = await newTask(tenantId, { sessionId: 's2' });

      const past = isoAt(Date.now() - 60 * 60 * 1000);
      expect(await store().tasks.expireStale(tenantId, { olderThan: past })).toBe(0);

      const future = isoAt(Date.now() + 60 * 1000);
      expect(
        await store().tasks.expireStale(tenantId, { olderThan: future, sessionId: 's1' }),
      ).toBe(3);
      for (const task of [active, executing, asking]) {
        const after = await store().tasks.get(tenantId, task.id);
        expect(after?.status).toBe('interrupted');
        expect(after?.version).toBe(task.version + 1);
      }
      expect(await store().tasks.get(tenantId, completed.id)).toEqual(completed);
      expect(await store().tasks.get(tenantId, cancelled.id)).toEqual(cancelled);
      expect(await store().tasks.get(tenantId, otherSession.id)).toEqual(otherSession);
      expect(await store().tasks.expireStale(tenantId, { olderThan: future })).toBe(1);
      expect((await store().tasks.get(tenantId, otherSession.id))?.status).toBe('interrupted');
    });
  });

  describe('taskActions', () => {
    const store = useStore(makeStore);

    it('inserts one action with every field round-tripping', async () => {
      const tenantId = await newTenant(store());
      const input = actionInput('task-1', 0, {
        expectedOutcome: {
          description: 'the menu opens',
          urlShouldChange: false,
          domChanges: { attributeChanges: [{ attribute: 'aria-expanded', expectedValue: 'true' }] },
          source: 'template',
        },
        beforeState: { url: 'https://a.test/', domHash: 'abc', semanticSkeleton: '[nav]' },
        verification: {
          success: true,
          confidence: 0.9,
          reason: 'menu visible',
          verificationTier: 1,
        },
        status: 'success',
        metrics: { durationMs: 120, inputTokens: 300, outputTokens: 20 },
      });
      const action = await store().taskActions.insert(tenantId, input);
      expect(action).toMatchObject({ ...input, tenantId });
      expectIso(action.createdAt);
      expect(await store().taskActions.get(tenantId, action.id)).toEqual(action);
      expect(await store().taskActions.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('inserts many in order and lists by step then time', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const base = Date.now();
      // Given out of order on purpose; unique (stepIndex, createdAt) pairs.
      const inputs = [
        actionInput(taskId, 1, { id: uniq('a'), createdAt: isoAt(base + 10) }),
        actionInput(taskId, 0, { id: uniq('a'), createdAt: isoAt(base + 20) }),
        actionInput(taskId, 0, { id: uniq('a'), createdAt: isoAt(base) }),
        actionInput(taskId, 2, { id: uniq('a'), createdAt: isoAt(base + 5) }),
      ];
      const inserted = await store().taskActions.insertMany(tenantId, inputs);
      expect(inserted.map((a) => a.id)).toEqual(inputs.map((a) => a.id));
      expect(inserted.map((a) => a.createdAt)).toEqual(inputs.map((a) => a.createdAt));
      const listed = await store().taskActions.listByTask(tenantId, taskId);
      expect(listed.map((a) => a.id)).toEqual([
        inputs[2]?.id,
        inputs[1]?.id,
        inputs[0]?.id,
        inputs[3]?.id,
      ]);
      expect(listed).toEqual(
        [inputs[2], inputs[1], inputs[0], inputs[3]].map((i) =>
          inserted.find((a) => a.id === i?.id),
        ),
      );
      expect(await store().taskActions.insertMany(tenantId, [])).toEqual([]);
      expect(await store().taskActions.listByTask(tenantId, uniq('missing'))).toEqual([]);
    });

    it('inserts a large batch', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const inputs = Array.from({ length: 1000 }, (_, i) => actionInput(taskId, i));
      const inserted = await store().taskActions.insertMany(tenantId, inputs);
      expect(new Set(inserted.map((a) => a.id)).size).toBe(1000);
      const listed = await store().taskActions.listByTask(tenantId, taskId);
      expect(listed.map((a) => a.stepIndex)).toEqual(inputs.map((a) => a.stepIndex));
    });

    it('gets the last action of a task', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      expect(await store().taskActions.getLast(tenantId, taskId)).toBeNull();
      const base = Date.now();
      await store().taskActions.insert(
        tenantId,
        actionInput(taskId, 0, { createdAt: isoAt(base) }),
      );
      const last = await store().taskActions.insert(
        tenantId,
        actionInput(taskId, 1, { createdAt: isoAt(base + 1) }),
      );
      await store().taskActions.insert(tenantId, actionInput(uniq('other-task'), 9));
      expect(await store().taskActions.getLast(tenantId, taskId)).toEqual(last);
    });

    it('updates verification, status, metrics and expected outcome', async () => {
      const tenantId = await newTenant(store());
      const action = await store().taskActions.insert(tenantId, actionInput('task-1', 0));
      const patch = {
        verification: {
          success: false,
          confidence: 0.4,
          reason: 'nothing changed',
          observations: ['same url'],
          nextGoalCheck: { available: false, reason: 'missing' },
        },
        status: 'failure' as const,
        metrics: { durationMs: 50, inputTokens: 10, outputTokens: 2 },
        expectedOutcome: { description: 'url changes', urlShouldChange: true },
      };
      const updated = await store().taskActions.update(tenantId, action.id, patch);
      expect(updated).toEqual({ ...action, ...patch });
      expect(await store().taskActions.get(tenantId, action.id)).toEqual(updated);
      expect(
        await store().taskActions.update(tenantId, uniq('missing'), { status: 'success' }),
      ).toBeNull();
    });
  });
}
