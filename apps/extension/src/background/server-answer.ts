// Reading the server's answer to one request: what the run records of it, and what the loop
// does next. Pure, so each rule is tested without a tab or a server.
import {
  describeAction,
  describeActions,
  describePageCapture,
  describePageRead,
  requestsPageState,
  safeParseAction,
  type NeedsUserInputResponse,
  type NextActionResponse,
  type ParsedAction,
  type VerificationResult,
} from '@tandem/contracts';
import type { PendingReport, RunState, StepView } from '../shared/run-state';

/**
 * The step in plain language: the server's words, else the page read it asked for, else our
 * own from the action (a server that sends no actionSummary still gets readable steps).
 */
export function stepSummary(res: NextActionResponse): string | undefined {
  if (res.actionSummary) return res.actionSummary;
  if (res.needs_snapshot) return describePageRead(res.needs_snapshot);
  if (res.needs_full_dom) return describePageCapture('full');
  if (res.needs_screenshot) return describePageCapture('hybrid');
  if (res.actions) {
    const parsed = res.actions.map((a) => safeParseAction(a.action));
    const actions = parsed.flatMap((p): ParsedAction[] => (p.ok ? [p.action] : []));
    if (actions.length === parsed.length) return describeActions(actions);
  }
  return res.actionDetails ? describeAction(res.actionDetails) : undefined;
}

/** The step as the live view lists it; optional parts only when there is something to show. */
export function stepView(res: NextActionResponse, index: number, at: number): StepView {
  const summary = stepSummary(res);
  return {
    index,
    thought: res.thought,
    ...(summary ? { summary } : {}),
    planStep: res.stepIndex,
    ...(res.action ? { action: res.action } : {}),
    ...(res.actions ? { chain: res.actions.map((a) => a.action) } : {}),
    ...(requestsPageState(res) ? { read: true } : {}),
    status: res.status,
    at,
  };
}

/**
 * The steps with `verification` on the step it judges: the server's verdict is on the last
 * action executed, which is the latest step that acted (page reads execute nothing). A verdict
 * with no such step, as on a task's first answer, judges nothing shown.
 */
export function withVerdict(steps: StepView[], verification?: VerificationResult): StepView[] {
  if (!verification) return steps;
  const judged = steps.findLastIndex(
    (s) => s.read !== true && (s.action !== undefined || s.chain !== undefined),
  );
  return judged < 0 ? steps : steps.map((s, i) => (i === judged ? { ...s, verification } : s));
}

/** What every answered request updates: its count, the request key and wait it used. */
function answered(run: Pick<RunState, 'requests'>) {
  return {
    requests: (run.requests ?? 0) + 1,
    requestKey: undefined,
    wait: undefined,
  } satisfies Partial<RunState>;
}

/**
 * What the run keeps of an answer: the task, the step (none for the answer that ends the task:
 * its final answer is shown once, as the result), the verdict on the previous step, the plan,
 * usage, collected counts and extractions when sent. The previous report is cleared: this request
 * delivered it, answer included.
 */
export function recordedStep(
  run: Pick<RunState, 'steps' | 'requests'>,
  res: NextActionResponse,
  at: number,
): Partial<RunState> {
  const steps = withVerdict(run.steps, res.verification);
  const ends = nextMove(res).kind === 'finish';
  return {
    taskId: res.taskId,
    sessionId: res.sessionId,
    steps: ends ? steps : [...steps, stepView(res, steps.length, at)],
    pending: undefined,
    ...answered(run),
    currentStep: res.stepIndex,
    ...(res.plan ? { plan: res.plan } : {}),
    ...(res.usage ? { usage: res.usage } : {}),
    // Absent, not undefined, when not sent: a step without counts keeps the counts shown.
    ...(res.collected ? { collected: res.collected } : {}),
    ...(res.duplicatesSkipped !== undefined ? { duplicatesSkipped: res.duplicatesSkipped } : {}),
    ...(res.collectLimit !== undefined ? { collectLimit: res.collectLimit } : {}),
    // The server lists every extraction of the task each time: the latest list replaces the last.
    ...(res.extractions ? { extractions: res.extractions } : {}),
    // Once the routine has handed over, later answers stop sending it: the banner keeps the last
    // word (why it stopped) instead of vanishing.
    ...(res.routine ? { routine: res.routine } : {}),
  };
}

/** What the run keeps of a question: it waits for the answer, which continues the same task. */
export function askedQuestion(
  run: Pick<RunState, 'requests'>,
  res: NeedsUserInputResponse,
): Partial<RunState> {
  return {
    status: 'needs_input',
    question: res.message,
    sessionId: res.sessionId,
    // A server that created no task sends none: the run keeps the one it has, if any.
    ...(res.taskId ? { taskId: res.taskId } : {}),
    ...(res.usage ? { usage: res.usage } : {}),
    pending: undefined,
    inFlight: undefined,
    ...answered(run),
  };
}

export type NextMove =
  /** The server wants the page again before acting: send it with the next request, run nothing. */
  | { kind: 'resend_page'; pending: PendingReport }
  | { kind: 'finish'; status: 'completed' | 'failed'; result: string }
  | { kind: 'execute' };

/** The loop's next move after a recorded answer. A request for page state wins over the status. */
export function nextMove(res: NextActionResponse): NextMove {
  // Full DOM only because the server asked for it (docs/specs.md, "Mode Priority", mode 5); a
  // screenshot too (hybrid, priority 4).
  if (res.needs_full_dom) return { kind: 'resend_page', pending: { captureMode: 'full' } };
  if (res.needs_screenshot) return { kind: 'resend_page', pending: { captureMode: 'hybrid' } };
  if (res.needs_snapshot)
    return { kind: 'resend_page', pending: { snapshotRequest: res.needs_snapshot } };
  if (res.status === 'completed' || res.status === 'failed')
    return { kind: 'finish', status: res.status, result: res.result ?? res.thought };
  return { kind: 'execute' };
}
