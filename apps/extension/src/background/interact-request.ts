// What the loop sends to POST /api/agent/interact: which task it continues and the body built
// from the captured page and the report the previous step left behind.
import type { InteractRequestInput, SecretRef } from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import { getTaskForTab, type RunState } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import type { CapturedPage } from './tab-driver';

/**
 * The taskId the next request continues, or 'lost'. A run's first request has none (it sends
 * the goal instead), unless the task already asked a question. After that the taskId comes
 * from chrome.storage.local (task_${tabId}, 30-minute expiry) and, if that is gone mid-task,
 * from the server's recovery endpoint (docs/specs.md, "taskId persistence and task recovery") —
 * never from memory, so a restarted service worker finds the same task. An answer goes to the task
 * that asked, however long the user took: the server decides whether that task can still continue.
 */
export async function findTaskId(
  storage: KeyValueStore,
  api: Pick<ApiClient, 'activeTask'>,
  run: Pick<RunState, 'steps' | 'sessionId' | 'taskId' | 'pending'>,
  tabId: number,
  url: string,
): Promise<{ taskId?: string } | 'lost'> {
  if (run.steps.length === 0 && !run.taskId) return {};
  let taskId = (await getTaskForTab(storage, tabId))?.taskId;
  if (!taskId && run.pending?.answer) taskId = run.taskId;
  if (!taskId && run.sessionId) taskId = (await api.activeTask(run.sessionId, url))?.taskId;
  return taskId ? { taskId } : 'lost';
}

/**
 * The request body: the captured page, the report on the last executed action(s), and either
 * the taskId to continue (with the user's answer, if any) or, with none, the goal that starts
 * the task, in the run's session when it has one (a new goal in the same tab continues the
 * conversation: "now do the same for John Smith").
 */
export function interactBody(
  page: CapturedPage,
  run: Pick<RunState, 'goal' | 'sessionId' | 'pending' | 'sites' | 'routineRequest'>,
  taskId: string | undefined,
  secrets: readonly SecretRef[] = [],
): InteractRequestInput {
  // captureMode and snapshotRequest only steered this capture; the server never sees them.
  const { captureMode: _mode, snapshotRequest: _read, answer, ...report } = run.pending ?? {};
  return {
    ...page,
    ...report,
    ...(taskId
      ? { taskId, ...(answer ? { answer } : {}) }
      : // A question with no task (a server that created none): the answer completes the goal.
        { query: answer ? `${run.goal}\n\n${answer}` : run.goal }),
    ...(run.sessionId ? { sessionId: run.sessionId } : {}),
    // The task's sites go with the request that starts it; the secrets' names and sites (never
    // a value) with every request, so one stored mid-task is known from the next step on.
    ...(!taskId && run.sites?.length ? { sites: run.sites } : {}),
    // The routine too, and only while the query is the filled template itself: with an answer
    // appended the server could not match it anyway.
    ...(!taskId && !answer && run.routineRequest ? { routine: run.routineRequest } : {}),
    ...(secrets.length > 0 ? { secrets: [...secrets] } : {}),
  };
}
