// What the live view lists, from the run state: each step in plain language with its raw
// action, thought and verdict; the plan with its marks; each extraction with its downloads.
// Pure, so it is unit tested without a DOM.
import {
  describeActions,
  formatAction,
  safeParseAction,
  type ExtractionProgress,
  type ParsedAction,
} from '@tandem/contracts';
import type { ExtractionFormat } from './api-client';
import { extractionLine, routineFallbackLine, routineLine } from './live-view-format';
import { isActiveStatus, type RunState, type StepView } from './run-state';

export type StepKind = 'action' | 'read' | 'note';

export interface StepModel {
  /** Changes whenever anything shown for the step changes (the DOM keeps unchanged items). */
  key: string;
  text: string;
  kind: StepKind;
  /** The action string(s) as the agent wrote them, one per line. */
  raw?: string;
  thought: string;
  verdict?: { ok: boolean; reason: string };
}

function parsedAll(actions: readonly string[]): ParsedAction[] | null {
  const parsed: ParsedAction[] = [];
  for (const text of actions) {
    const result = safeParseAction(text);
    if (!result.ok) return null;
    parsed.push(result.action);
  }
  return parsed;
}

/** The words people read first: the loop's summary, else the action described here. */
export function stepText(step: StepView): { text: string; kind: StepKind } {
  const kind: StepKind = step.read ? 'read' : step.action || step.chain?.length ? 'action' : 'note';
  const summary = step.summary?.trim();
  if (summary) return { text: summary, kind };
  if (step.read) return { text: 'Read the page', kind };
  const actions = step.chain?.length ? step.chain : step.action ? [step.action] : [];
  if (actions.length === 0) return { text: step.thought.trim() || 'Thinking…', kind };
  const parsed = parsedAll(actions);
  return { text: parsed ? describeActions(parsed) : actions.join(', then '), kind };
}

/**
 * One step as listed. The verdict shown is the one on this step: the loop attaches each
 * verification to the step it judges, not to the step whose response carried it. The final
 * answer is shown once, in its own box, so a step that would repeat it reads "Finished".
 */
export function stepModel(step: StepView, result?: string): StepModel {
  const { text: described, kind } = stepText(step);
  const finished = result !== undefined && described === result.trim() ? 'Finished' : described;
  const text = withApproval(finished, step.approval);
  const raw = step.chain?.length ? step.chain.join('\n') : step.action;
  const verdict = step.verification
    ? { ok: step.verification.success, reason: step.verification.reason }
    : undefined;
  const model: StepModel = {
    key: '',
    text,
    kind,
    thought: step.thought,
    ...(raw ? { raw } : {}),
    ...(verdict ? { verdict } : {}),
  };
  model.key = JSON.stringify([step.index, text, kind, raw, step.thought, verdict]);
  return model;
}

export interface RoutineBanner {
  /** Changes whenever the banner's words change. */
  key: string;
  line: string;
  /** Why the routine stopped and the agent took over; null while it runs. */
  fallback: string | null;
}

/** The banner of a run that runs (or ran) a saved routine; null for any other run. */
export function routineBanner(run: RunState | null): RoutineBanner | null {
  const info = run?.routine;
  if (!info) return null;
  const line = routineLine(info);
  const fallback = info.fellBack === null ? null : routineFallbackLine(info.fellBack);
  return { key: JSON.stringify([line, fallback]), line, fallback };
}

export type PlanMark = 'done' | 'current' | 'failed' | 'skipped' | 'todo';

export interface PlanItem {
  index: number;
  text: string;
  mark: PlanMark;
  /**
   * On the first step of each sub-task of a hierarchical plan: the sub-task's heading
   * ("Part 2 of 3 · Book the visit").
   */
  part?: string;
}

/**
 * The plan with a mark per step. The server's own status wins; a step the plan has moved past
 * counts as done even when its status was not updated, and "current" is only shown while the
 * task can still act.
 */
export function planItems(run: RunState): PlanItem[] {
  const plan = run.plan;
  if (!plan || plan.steps.length === 0) return [];
  const current = run.currentStep ?? plan.currentStepIndex;
  const active = isActiveStatus(run.status);
  const finished = run.status === 'completed';
  const parts = Math.max(0, ...plan.steps.map((s) => (s.subTask ? s.subTask.index + 1 : 0)));
  return plan.steps.map((step, position): PlanItem => {
    const index = step.index;
    const mark: PlanMark =
      step.status === 'completed'
        ? 'done'
        : step.status === 'failed'
          ? 'failed'
          : step.status === 'skipped'
            ? 'skipped'
            : index === current && active
              ? 'current'
              : index < current || (finished && index === current)
                ? 'done'
                : 'todo';
    const sub = step.subTask;
    const opensPart = sub && plan.steps[position - 1]?.subTask?.index !== sub.index;
    return {
      index,
      text: step.description,
      mark,
      ...(sub && opensPart ? { part: `Part ${sub.index + 1} of ${parts} · ${sub.name}` } : {}),
    };
  });
}

export interface ExtractionDownload {
  format: ExtractionFormat;
  /** The button's words. */
  text: string;
  /**
   * Its accessible name: which extraction it downloads, as the popup may show the collected
   * items' "Download CSV" and several extractions' next to each other. It starts with the
   * button's words, so voice control users can say what they see.
   */
  label: string;
}

export interface ExtractionRow {
  /** Changes whenever anything shown for the row changes (the DOM keeps unchanged rows). */
  key: string;
  extractionId: string;
  text: string;
  downloads: ExtractionDownload[];
}

/**
 * One row per extraction of the run. JSON is always there; CSV only for a list (`items` is
 * null when the data is not one, and the server answers 400 to a CSV of it). No downloads
 * without the task they belong to.
 */
export function extractionRows(
  extractions: readonly ExtractionProgress[],
  taskId: string | undefined,
): ExtractionRow[] {
  const several = extractions.length > 1;
  return extractions.map((extraction, i) => {
    const formats: ExtractionFormat[] = extraction.items === null ? ['json'] : ['json', 'csv'];
    const what = several ? `extraction ${i + 1}` : 'the extracted data';
    const downloads = taskId
      ? formats.map((format): ExtractionDownload => {
          const text = `Download ${format.toUpperCase()}`;
          return { format, text, label: `${text} of ${what}` };
        })
      : [];
    const text = extractionLine(extraction);
    const row = { extractionId: extraction.extractionId, text, downloads };
    return { key: JSON.stringify(row), ...row };
  });
}

// "Clicked “Send”" → "Click “Send”": the card asks before the step, the steps list after it.
const IMPERATIVE: Record<string, string> = {
  Clicked: 'Click',
  Typed: 'Type',
  Cleared: 'Clear',
  Chose: 'Choose',
  Pressed: 'Press',
  Opened: 'Open',
  Scrolled: 'Scroll',
  Pointed: 'Point',
  Waited: 'Wait',
  Went: 'Go',
};
/** Each action of the text as an instruction, the chain's too ("…, then click …"). */
const asInstruction = (text: string): string =>
  text.replace(/(^|, then )(\w+)/g, (_all, lead: string, verb: string) => {
    const capital = verb.charAt(0).toUpperCase() + verb.slice(1);
    const imperative = IMPERATIVE[capital];
    if (!imperative) return `${lead}${verb}`;
    return `${lead}${lead ? imperative.toLowerCase() : imperative}`;
  });

/**
 * A step that waited for the user says so: it had not run yet (an instruction, not a deed), or
 * never ran, or ran as they edited it.
 */
function withApproval(text: string, approval: StepView['approval']): string {
  switch (approval) {
    case 'waiting':
      return `${asInstruction(text)} (waiting for your approval)`;
    case 'rejected':
      return `Not done: ${lowerFirst(asInstruction(text))} (you rejected it)`;
    case 'edited':
      return `${text} (as you edited it)`;
    default:
      return text;
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** A field of the card the user may edit before approving: a typed text or a chosen option. */
export interface ApprovalEdit {
  /** The input's accessible name: "Text for Message". */
  label: string;
  value: string;
}

export interface ApprovalItem {
  /** The action as an instruction: "Type “See you at 9” into Message". */
  text: string;
  /** The action as sent (grammar text). */
  action: string;
  edit?: ApprovalEdit;
}

export interface ApprovalModel {
  /** Changes whenever the card's content changes (the DOM keeps an unchanged card as it is). */
  key: string;
  /** Why it needs approval, one line per risky action. */
  reasons: string[];
  items: ApprovalItem[];
}

/** The approval card of a run waiting for it; null otherwise. */
export function approvalModel(run: RunState | null): ApprovalModel | null {
  const approval = run?.status === 'needs_approval' ? run.approval : undefined;
  if (!approval) return null;
  const names = approval.names ?? {};
  const items = approval.actions.map((step): ApprovalItem => {
    const parsed = safeParseAction(step.action);
    if (!parsed.ok) return { text: step.action, action: step.action };
    const action = parsed.action;
    const text = asInstruction(describeActions([action], names));
    if (action.name === 'setValue' || action.name === 'select') {
      const field = names[action.args.id]?.trim() || `field ${action.args.id}`;
      const edit =
        action.name === 'setValue'
          ? { label: `Text for ${field}`, value: action.args.text }
          : { label: `Option for ${field}`, value: action.args.option };
      return { text, action: step.action, edit };
    }
    return { text, action: step.action };
  });
  const reasons = approval.risks.map((r) => r.reason);
  return { key: JSON.stringify([approval.actions, reasons, names]), reasons, items };
}

/** The item's action with the user's edit in place of its text or option. */
export function editedAction(item: ApprovalItem, value: string): string {
  const parsed = safeParseAction(item.action);
  if (!parsed.ok || value === item.edit?.value) return item.action;
  const action = parsed.action;
  if (action.name === 'setValue')
    return formatAction({ ...action, args: { ...action.args, text: value } });
  if (action.name === 'select' && value.trim() !== '')
    return formatAction({ ...action, args: { ...action.args, option: value } });
  return item.action;
}
