// The interact flow of spec 003 Phases 1-4 around the graph: sessions and messages, RAG once
// per request, the provisional taskId, task persistence after an action exists, one request at
// a time per task, idempotent retries, and the mapping of graph refusals to HTTP errors.
import { createHash, randomUUID } from 'node:crypto';
import {
  emptyTaskMetrics,
  InteractResponse,
  RESULT_ITEMS_MAX,
  type CollectedItemsByType,
  type InteractRequest,
  type NextActionResponse,
} from '@tandem/contracts';
import { interactTraceName } from '@tandem/observability';
import { isDuplicateKeyError, type Store, type Task } from '@tandem/store';
import type { AgentDeps, AgentLogger } from '../deps';
import { buildInteractGraph, type InteractGraph } from '../graph';
import type { InteractRunContext, ResumeInput } from '../nodes/dispatch/node';
import { pageStateFrom } from '../page/page-state';
import { inferCollectLimit } from '../collect/extraction-goal';
import type { TaskEventHub } from '../collect/event-hub';
import type { RagService } from '../rag/port';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { InteractError } from './interact-error';

export { InteractError } from './interact-error';

export interface InteractCaller {
  tenantId: string;
  userId: string;
}

export interface InteractServiceOptions {
  store: Store;
  deps: AgentDeps;
  rag: RagService;
  /** Live step/done events for the SSE route (the popup's live view); absent: none sent. */
  events?: TaskEventHub;
  /** Lock lease: a crashed request frees its task after this long. */
  lockTtlMs?: number;
}

const LOCK_SCOPE = 'task-lock';
const IDEMPOTENCY_TTL_MS = 10 * 60 * 1000;
/** Marks a task whose last run threw: its next request forks from the last interrupt. */
const FORK_SCOPE = 'task-fork';
const FORK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface InteractService {
  interact(
    caller: InteractCaller,
    request: InteractRequest,
    log?: AgentLogger,
  ): Promise<InteractResponse>;
  readonly graph: InteractGraph;
}

export function createInteractService(options: InteractServiceOptions): InteractService {
  const { store, deps, rag } = options;
  const lockTtlMs = options.lockTtlMs ?? 2 * 60 * 1000;
  const graph = buildInteractGraph(deps, store.checkpointer);

  async function withTaskLock<T>(
    tenantId: string,
    taskId: string,
    fn: () => Promise<T>,
  ): Promise<T> {
    const key = `${LOCK_SCOPE}:${taskId}`;
    try {
      await store.idempotency.begin(tenantId, {
        key,
        scope: LOCK_SCOPE,
        requestHash: key,
        ttlMs: lockTtlMs,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        throw new InteractError(
          'TASK_BUSY',
          'Another request is already advancing this task; wait for its response.',
        );
      }
      throw error;
    }
    try {
      return await fn();
    } finally {
      await store.idempotency.release(tenantId, key).catch(() => false);
    }
  }

  async function ragFor(
    caller: InteractCaller,
    request: InteractRequest,
    query: string,
  ): Promise<ResumeInput['ragContext']> {
    const { chunks, hasOrgKnowledge } = await rag.getRAGChunks({
      url: request.url,
      query,
      tenantId: caller.tenantId,
    });
    return {
      text: chunks
        .map((c) => `[${c.headingPath.join(' > ') || 'knowledge'}] ${c.content}`)
        .join('\n---\n'),
      chunkIds: chunks.map((c) => c.id),
      hasOrgKnowledge,
    };
  }

  async function persist(
    caller: InteractCaller,
    state: InteractStateType,
    existing: Task | null,
    started: number,
    verifiedActionId: string | null,
  ): Promise<NextActionResponse> {
    const response = state.output.response;
    if (!response || response.needsUserInput) throw new Error('persist needs an action response');
    const pending = state.pending;
    const metrics = {
      ...(existing?.metrics ?? emptyTaskMetrics()),
      totalSteps: state.stepCount,
      totalRequests: state.requestCount,
      totalDurationMs: (existing?.metrics.totalDurationMs ?? 0) + (Date.now() - started),
      inputTokens: state.tokens.input,
      outputTokens: state.tokens.output,
      totalTokens: state.tokens.input + state.tokens.output,
      verificationsPassed:
        (existing?.metrics.verificationsPassed ?? 0) +
        (state.lastVerification && verifiedActionId !== null
          ? state.lastVerification.success
            ? 1
            : 0
          : 0),
      verificationsFailed:
        (existing?.metrics.verificationsFailed ?? 0) +
        (state.lastVerification && verifiedActionId !== null
          ? state.lastVerification.success
            ? 0
            : 1
          : 0),
      corrections: state.corrections.length,
    };
    const fields = {
      status: state.status === 'active' ? ('executing' as const) : state.status,
      complexity: state.complexity,
      plan: state.plan,
      currentStepIndex: state.currentStepIndex,
      corrections: state.corrections,
      metrics,
      lastChain: pending?.chain
        ? {
            actions: pending.chain.actions,
            metadata: pending.chain.metadata,
            stepIndex: pending.stepIndex,
          }
        : null,
      result: state.result,
      consecutiveFailures: state.consecutiveFailures,
      consecutiveSuccessWithoutTaskComplete: state.consecutiveSuccessWithoutTaskComplete,
      webSearchResult: state.webSearchSummary,
    };
    if (existing) {
      await store.tasks.update(caller.tenantId, existing.id, fields);
    } else {
      await store.tasks.create(caller.tenantId, {
        ...fields,
        id: state.taskId,
        userId: caller.userId,
        sessionId: state.sessionId,
        url: state.page?.url ?? '',
        query: state.query,
        collectLimit: state.collectLimit,
      });
    }
    if (verifiedActionId && state.lastVerification) {
      await store.taskActions.update(caller.tenantId, verifiedActionId, {
        verification: state.lastVerification,
        status: state.lastVerification.success ? 'success' : 'failure',
      });
    }
    // Corrections retry the step they correct: they get no TaskAction of their own (spec 003
    // Step 3.4). A page read (needs_snapshot) sends no action: `pending` is still the last one.
    const readingPage = response.needs_snapshot !== undefined;
    if (pending && pending.source !== 'correction' && !readingPage) {
      await store.taskActions.insert(caller.tenantId, {
        taskId: state.taskId,
        stepIndex: pending.stepIndex,
        thought: pending.thought,
        action: pending.chain
          ? pending.chain.actions.map((a) => a.action).join('; ')
          : pending.action,
        expectedOutcome: pending.expectedOutcome,
        beforeState: pending.beforeState,
        verification: null,
        status:
          state.status === 'completed'
            ? 'success'
            : state.status === 'failed'
              ? 'failure'
              : 'pending',
        metrics: {
          durationMs: Date.now() - started,
          inputTokens: state.tokens.input,
          outputTokens: state.tokens.output,
        },
      });
    }
    await store.messages.append(caller.tenantId, {
      sessionId: state.sessionId,
      role: 'assistant',
      content: response.thought,
      actionString: response.action ?? null,
      taskId: state.taskId,
    });
    if (state.status === 'completed' || state.status === 'failed') {
      await store.sessions.update(caller.tenantId, state.sessionId, { status: state.status });
    }
    publishStep(caller.tenantId, state, response, readingPage);
    const ended = state.status === 'completed' || state.status === 'failed';
    const collectedItems =
      ended && Object.keys(state.collectedCounts).length > 0
        ? await resultItems(caller.tenantId, state.taskId)
        : undefined;
    return {
      ...response,
      ...(collectedItems ? { collectedItems } : {}),
      metrics: {
        requestDurationMs: Date.now() - started,
        stepCount: state.stepCount,
        llmCalls: state.tokens.calls,
        tokensSaved: state.tokens.saved,
      },
    };
  }

  /**
   * What a finished task collected, grouped by type (spec 000's `TaskResult.collected`): read
   * from the store once, at the end, so graph state and prompts never hold the items.
   */
  async function resultItems(tenantId: string, taskId: string): Promise<CollectedItemsByType> {
    const grouped: CollectedItemsByType = {};
    for (const item of await store.collectedItems.list(tenantId, taskId, {
      limit: RESULT_ITEMS_MAX,
    })) {
      (grouped[item.type] ??= []).push(item.data);
    }
    return grouped;
  }

  /** Announces the step to live viewers (SSE); the store stays the source of truth. */
  function publishStep(
    tenantId: string,
    state: InteractStateType,
    response: NextActionResponse,
    readingPage: boolean,
  ): void {
    const events = options.events;
    if (!events) return;
    const done = state.status === 'completed' || state.status === 'failed';
    events.publish(tenantId, state.taskId, {
      event: 'step',
      taskId: state.taskId,
      stepIndex: response.stepIndex,
      action: readingPage
        ? `readPage(${response.needs_snapshot?.mode ?? ''})`
        : (response.action ?? ''),
      status: done ? (state.status === 'completed' ? 'success' : 'failure') : 'pending',
      thought: response.thought,
      at: new Date().toISOString(),
    });
    if (done) {
      events.publish(tenantId, state.taskId, {
        event: 'done',
        taskId: state.taskId,
        status: state.status,
        result: state.result,
        counts: state.collectedCounts,
      });
    }
  }

  /** Runs or resumes the graph; returns the state after the run. */
  async function run(
    tenantId: string,
    taskId: string,
    input: InteractStateUpdate | ResumeInput,
    resume: boolean,
  ): Promise<InteractStateType> {
    // Checkpoint when the run stops (paused before dispatch, or at the end), not after every
    // node: the pause is the only point a later request resumes from, and per-node writes
    // were most of a step's cost.
    const config = {
      configurable: { thread_id: taskId },
      recursionLimit: 60,
      durability: 'exit' as const,
    };
    if (!resume)
      return (await graph.invoke(input as InteractStateUpdate, config)) as InteractStateType;

    // A thread is paused before dispatch unless the previous run threw: a process killed
    // mid-run writes nothing (durability 'exit'), and every refusal in a continuation fails
    // the task. A run that threw checkpoints where it failed and leaves a fork marker, so the
    // common path resumes without first loading the whole checkpoint through getState (15% of
    // a step's CPU). The request's page reaches dispatch as the run's context.
    const context = { resume: input as ResumeInput };
    const forkKey = `${FORK_SCOPE}:${taskId}`;
    const forkNeeded = (await store.idempotency.get(tenantId, forkKey)) !== null;
    try {
      const values = forkNeeded
        ? await forkFromLastPause(config, context)
        : await graph.invoke(null, { ...config, context });
      if (forkNeeded) await store.idempotency.release(tenantId, forkKey);
      return values as InteractStateType;
    } catch (error) {
      if (!forkNeeded && !(error instanceof InteractError)) {
        await store.idempotency
          .begin(tenantId, {
            key: forkKey,
            scope: FORK_SCOPE,
            requestHash: forkKey,
            ttlMs: FORK_TTL_MS,
          })
          .catch((markError: unknown) => {
            if (!isDuplicateKeyError(markError))
              deps.log.error('fork marker write failed', { taskId, error: markError });
          });
      }
      throw error;
    }
  }

  /**
   * The previous request failed midway (LLM outage, crash) after taking in its page state.
   * Fork from the last checkpoint that was paused before dispatch and replay this request's
   * page there, as if the failed request never happened.
   */
  async function forkFromLastPause(
    config: { configurable: { thread_id: string }; recursionLimit: number; durability: 'exit' },
    context: InteractRunContext,
  ): Promise<unknown> {
    const pausedAtDispatch = (next: readonly string[]) => next.includes('dispatch');
    const snapshot = await graph.getState(config);
    if (pausedAtDispatch(snapshot.next)) return graph.invoke(null, { ...config, context });
    if (snapshot.next.length === 0)
      throw new InteractError('CONFLICT', 'This task has no step waiting for a result.');
    for await (const past of graph.getStateHistory(config)) {
      if (pausedAtDispatch(past.next)) {
        return graph.invoke(null, {
          ...past.config,
          recursionLimit: config.recursionLimit,
          durability: config.durability,
          context,
        });
      }
    }
    throw new InteractError('CONFLICT', 'This task has no step waiting for a result.');
  }

  /** One LangFuse trace per request (`interact-request-{taskId}`), when tracing is on. */
  function tracedInteract(
    caller: InteractCaller,
    request: InteractRequest,
    log: AgentLogger,
  ): Promise<InteractResponse> {
    // New tasks get their provisional id here so the trace carries it from the first span.
    const taskId = request.taskId ?? randomUUID();
    const tracing = deps.tracing;
    if (!tracing?.enabled) return interactOnce(caller, request, log, taskId);
    return tracing.startTrace(
      interactTraceName(taskId),
      {
        tenantId: caller.tenantId,
        userId: caller.userId,
        sessionId: request.sessionId ?? null,
        taskId,
        tags: [request.taskId ? 'continuation' : 'new-task'],
        input: { query: request.query ?? null, url: request.url },
      },
      async (trace) => {
        const response = await interactOnce(caller, request, log, taskId);
        trace.setOutput(
          response.needsUserInput
            ? { needsUserInput: true, message: response.message }
            : {
                action: response.action ?? null,
                status: response.status,
                thought: response.thought,
              },
        );
        return response;
      },
    );
  }

  async function interactOnce(
    caller: InteractCaller,
    request: InteractRequest,
    log: AgentLogger,
    provisionalTaskId: string,
  ): Promise<InteractResponse> {
    const started = Date.now();
    const page = pageStateFrom(request);

    // --- session (spec 003 Step 1.3) ------------------------------------------------------
    let sessionId = request.sessionId ?? null;
    if (sessionId) {
      const session = await store.sessions.get(caller.tenantId, sessionId);
      if (!session) throw new InteractError('NOT_FOUND', `Session ${sessionId} not found.`);
      if (request.taskId && request.lastActionStatus) {
        await store.messages.updateLast(caller.tenantId, sessionId, {
          status: request.lastActionStatus,
          error: request.lastActionError ?? null,
        });
      }
    } else {
      sessionId = (
        await store.sessions.create(caller.tenantId, {
          userId: caller.userId,
          url: request.url,
          title: request.pageTitle ?? null,
        })
      ).id;
    }

    // --- new task (Phase 1) ----------------------------------------------------------------
    if (!request.taskId) {
      const query = (request.query ?? '').trim();
      const taskId = provisionalTaskId; // logged from the first line, persisted later
      const tlog = log.child({ taskId });
      tlog.info('new task', { query, sessionId, elements: page.tree.length });
      await store.messages.append(caller.tenantId, { sessionId, role: 'user', content: query });
      const ragContext = await ragFor(caller, request, query);
      const state = await run(
        caller.tenantId,
        taskId,
        {
          taskId,
          tenantId: caller.tenantId,
          userId: caller.userId,
          sessionId,
          query,
          page,
          ragContext,
          requestCount: 1,
          collectLimit: request.collectLimit ?? inferCollectLimit(query),
        },
        false,
      );
      const out = state.output;
      if (out.error) {
        tlog.info('task refused', { code: out.error.code });
        throw new InteractError(out.error.code, out.error.message);
      }
      if (!out.response) throw new Error('graph finished without a response');
      if (out.response.needsUserInput) {
        await store.messages.append(caller.tenantId, {
          sessionId,
          role: 'assistant',
          content: out.response.message,
        });
        return out.response;
      }
      return persist(caller, state, null, started, null);
    }

    // --- continuation (Phase 3) -----------------------------------------------------------
    const taskId = request.taskId;
    const tlog = log.child({ taskId });
    const task = await store.tasks.get(caller.tenantId, taskId);
    if (!task) throw new InteractError('NOT_FOUND', `Task ${taskId} not found.`);
    if (task.status === 'completed')
      throw new InteractError(
        'TASK_COMPLETED',
        'This task is already completed; start a new task.',
      );
    if (task.status === 'failed')
      throw new InteractError(
        'TASK_FAILED',
        `This task has failed${task.result ? `: ${task.result}` : ''}; start a new task.`,
      );
    if (task.status === 'interrupted')
      throw new InteractError(
        'CONFLICT',
        'This task was interrupted after 30 minutes without activity; start a new task.',
      );
    if (task.sessionId && task.sessionId !== sessionId)
      throw new InteractError('CONFLICT', 'This task belongs to another session.');
    return withTaskLock(caller.tenantId, taskId, async () => {
      if (task.metrics.totalSteps >= deps.limits.maxStepsPerTask) {
        await store.tasks.update(caller.tenantId, taskId, {
          status: 'failed',
          result: `Maximum of ${deps.limits.maxStepsPerTask} steps exceeded.`,
        });
        throw new InteractError(
          'MAX_STEPS_EXCEEDED',
          `This task reached the maximum of ${deps.limits.maxStepsPerTask} steps.`,
        );
      }
      const previousAction = await store.taskActions.getLast(caller.tenantId, taskId);
      const ragContext = await ragFor(caller, request, task.query);
      tlog.info('continue task', {
        step: task.currentStepIndex,
        lastActionStatus: request.lastActionStatus ?? null,
      });
      const state = await run(caller.tenantId, taskId, { page, ragContext }, true);
      const out = state.output;
      if (out.error) {
        if (out.error.failTask) {
          await store.tasks.update(caller.tenantId, taskId, {
            status: 'failed',
            result: out.error.message,
          });
          await store.sessions.update(caller.tenantId, task.sessionId ?? sessionId, {
            status: 'failed',
          });
        }
        tlog.warn('task refused', { code: out.error.code, failTask: out.error.failTask });
        throw new InteractError(out.error.code, out.error.message);
      }
      if (!out.response) throw new Error('graph finished without a response');
      if (out.response.needsUserInput) return out.response;
      return persist(
        caller,
        state,
        task,
        started,
        previousAction?.status === 'pending' ? previousAction.id : null,
      );
    });
  }

  return {
    graph,
    async interact(caller, request, log = deps.log) {
      if (!request.idempotencyKey) return tracedInteract(caller, request, log);
      // Same key = same request: replay the stored answer instead of advancing the task twice.
      const key = `interact:${request.idempotencyKey}`;
      const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      try {
        await store.idempotency.begin(caller.tenantId, {
          key,
          scope: 'interact',
          requestHash: hash,
          ttlMs: IDEMPOTENCY_TTL_MS,
        });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const record = await store.idempotency.get(caller.tenantId, key);
        if (record && record.requestHash !== hash)
          throw new InteractError(
            'CONFLICT',
            'idempotencyKey was already used for a different request.',
          );
        if (record?.status === 'completed') return InteractResponse.parse(record.response);
        throw new InteractError(
          'CONFLICT',
          'A request with this idempotencyKey is still in progress.',
        );
      }
      try {
        const response = await tracedInteract(caller, request, log);
        await store.idempotency.complete(caller.tenantId, key, response);
        return response;
      } catch (error) {
        await store.idempotency.release(caller.tenantId, key).catch(() => false);
        throw error;
      }
    },
  };
}
