// Reading the server's answer to one request: what the run records of it, and what the loop
// does next. Pure, so each rule is tested without a tab or a server.
import type { NextActionResponse } from '@tandem/contracts';
import type { PendingReport, RunState, StepView } from '../shared/run-state';

/** The step as the popup lists it; optional parts only when the server sent them. */
export function stepView(res: NextActionResponse, index: number, at: number): StepView {
  return {
    index,
    thought: res.thought,
    ...(res.action ? { action: res.action } : {}),
    ...(res.actions ? { chain: res.actions.map((a) => a.action) } : {}),
    ...(res.verification ? { verification: res.verification } : {}),
    status: res.status,
    at,
  };
}

/**
 * What the run keeps of an answer: the task it belongs to, the step appended, and the collected
 * counts when the server sent them. The previous report is cleared: this request delivered it.
 */
export function recordedStep(
  run: Pick<RunState, 'steps'>,
  res: NextActionResponse,
  at: number,
): Partial<RunState> {
  return {
    taskId: res.taskId,
    sessionId: res.sessionId,
    steps: [...run.steps, stepView(res, run.steps.length, at)],
    pending: undefined,
    ...(res.collected ? { collected: res.collected } : {}),
  };
}

export type NextMove =
  /** The server wants the page again before acting: send it with the next request, run nothing. */
  | { kind: 'resend_page'; pending: PendingReport }
  | { kind: 'finish'; status: 'completed' | 'failed'; result: string }
  | { kind: 'execute' };

/** The loop's next move after a recorded answer. A request for page state wins over the status. */
export function nextMove(res: NextActionResponse): NextMove {
  // Full DOM only because the server asked for it (spec 003 mode priority 5).
  if (res.needs_full_dom) return { kind: 'resend_page', pending: { captureMode: 'full' } };
  if (res.needs_snapshot)
    return { kind: 'resend_page', pending: { snapshotRequest: res.needs_snapshot } };
  if (res.status === 'completed' || res.status === 'failed')
    return { kind: 'finish', status: res.status, result: res.result ?? res.thought };
  return { kind: 'execute' };
}
