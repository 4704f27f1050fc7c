// The routine compiler: a completed task's verified steps, as a routine draft that
// can run again without the model, or the reason there is none. Pure: the trace verification
// kept (routines/trace.ts) and the goal in, a draft out; the service stores it.
//
// A run compiles when the task completed, every step was verified (a failed step counts only
// when the next verdict on the same plan step verified a fix, and the failure changed neither
// the URL nor, for a chain, ran part-way), and every action on an element kept that element's
// locators. An extraction compiles into an `extract` step that replays its saved strategy on
// the page, and items the model collected into a `collect` step that reads them again with
// selectors learned from them (the goal's count a parameter); clicks on screenshot points do
// not compile: a routine replays actions on elements it can find again, and reads it can repeat.
import {
  actionsRisks,
  actionTargetId,
  hostOf,
  RoutineDraft,
  RoutineStepAction,
  ROUTINE_COLLECT,
  ROUTINE_EXTRACT,
  ROUTINE_LIMITS,
  type ParsedAction,
  type RoutineStep,
  type TemplatePart,
  type TaskStatus,
  fillTemplate,
  renderTemplate,
  escapeTemplate,
} from '@tandem/contracts';
import { defaultRoutineName } from '@tandem/store';
import { findParameters, type TracedValue } from './parameters';
import type { RoutineTraceAction, RoutineTraceEntry } from './trace';

export interface CompileInput {
  /** The user's goal, verbatim. */
  query: string;
  status: TaskStatus;
  trace: readonly RoutineTraceEntry[];
}

export type CompileResult = { ok: true; draft: RoutineDraft } | { ok: false; reason: string };

const refuse = (reason: string): CompileResult => ({ ok: false, reason });

/** The verified entries the routine is made of, or why the run cannot be one. */
export function verifiedEntries(
  trace: readonly RoutineTraceEntry[],
): { ok: true; entries: RoutineTraceEntry[] } | { ok: false; reason: string } {
  const entries: RoutineTraceEntry[] = [];
  for (let i = 0; i < trace.length; i++) {
    const entry = trace[i] as RoutineTraceEntry;
    if (entry.verified) {
      entries.push(entry);
      continue;
    }
    const where = `step ${entry.stepIndex + 1}`;
    if (entry.partial)
      return { ok: false, reason: `a chain on ${where} stopped part-way, unverified` };
    if (entry.expect.urlChanged)
      return { ok: false, reason: `a failed action on ${where} moved to another page` };
    // Healed: the next verified verdict fixed the same plan step.
    const next = trace.slice(i + 1).find((e) => e.verified || e.stepIndex !== entry.stepIndex);
    if (!next?.verified || next.stepIndex !== entry.stepIndex)
      return { ok: false, reason: `${where} failed and was not healed` };
  }
  return { ok: true, entries };
}

/** The action's one argument besides its element, as text. */
function valueOf(action: ParsedAction): string | null {
  switch (action.name) {
    case 'setValue':
      return action.args.text;
    case 'select':
      return action.args.option;
    case 'press':
      return action.args.key;
    case 'navigate':
      return action.args.url;
    case 'scroll':
      return 'direction' in action.args ? action.args.direction : null;
    case 'wait':
      return String(action.args.seconds);
    default:
      return null;
  }
}

interface FlatStep {
  entry: RoutineTraceEntry;
  /** Null for an extraction (`read`). */
  item: RoutineTraceAction | null;
  /** The extraction strategy an `extract` step replays. */
  read: string | null;
  /** The items a `collect` step reads again: their type, and the task's count. */
  collect: { type: string; limit: number | null } | null;
  index: number;
  last: boolean;
  safety: RoutineStep['safety'];
}

function flatten(entries: readonly RoutineTraceEntry[]): FlatStep[] | string {
  const steps: FlatStep[] = [];
  for (const entry of entries) {
    if (entry.collect) {
      steps.push({
        entry,
        item: null,
        read: null,
        collect: entry.collect,
        index: 0,
        last: true,
        safety: 'safe',
      });
      continue;
    }
    if (entry.read) {
      if (entry.read.extractionId === null)
        return `the extraction on step ${entry.stepIndex + 1} kept no strategy to replay`;
      steps.push({
        entry,
        item: null,
        read: entry.read.extractionId,
        collect: null,
        index: 0,
        last: true,
        safety: 'safe',
      });
      continue;
    }
    const actions = entry.actions.map((a) => a.action);
    const risks = actionsRisks(actions, (_, i) => {
      const target = entry.actions[i]?.target;
      return target ? { role: target.role, name: target.name } : undefined;
    });
    for (const [index, item] of entry.actions.entries()) {
      const kind = RoutineStepAction.safeParse(item.action.name);
      if (!kind.success) return `${item.action.name} cannot be replayed`;
      if (actionTargetId(item.action) !== undefined && !item.target)
        return `no locators were kept for the target of ${item.action.name} on step ${entry.stepIndex + 1}`;
      steps.push({
        entry,
        item,
        read: null,
        collect: null,
        index,
        last: index === entry.actions.length - 1,
        safety: risks.find((r) => r.index === index)?.kind ?? 'safe',
      });
    }
  }
  return steps;
}

/** Actions on an element chosen by its name. */
const CLICKS: ReadonlySet<string> = new Set(['click', 'hover']);
/**
 * Elements whose name a goal may give: choices (an option, a link in a list, a tab, a radio
 * button) and buttons named as things (a job card, "Data Analyst"). A button the goal names
 * in its first words is its verb ("Publish the draft") and stays literal (see verbButtons).
 */
const CHOICES: Readonly<Record<string, string>> = {
  btn: 'item',
  link: 'link',
  opt: 'option',
  tab: 'tab',
  menu: 'menu item',
  radio: 'choice',
  chk: 'checkbox',
  treeitem: 'item',
};
/** Traced element names are keyed past any step index (ROUTINE_LIMITS.steps), apart from values. */
const TARGET_KEY = 1_000_000;
/**
 * A collect's item count ("Extract 15 job listings") is keyed past the names: it is a parameter
 * of the goal that no step's text holds (a rerun's count is read from its own goal).
 */
const COUNT_KEY = 2 * TARGET_KEY;

/**
 * Buttons whose traced name opens the goal: the goal's verb ("Publish the draft", "Save"), so a
 * rerun must press that button, never the one another goal's first word names.
 */
function verbButtons(
  flat: readonly FlatStep[],
  traced: readonly TracedValue[],
  found: ReturnType<typeof findParameters>,
): TracedValue[] {
  const goal = found.plainGoal.trim().toLowerCase();
  return traced.filter(
    (t) =>
      t.step >= TARGET_KEY &&
      flat[t.step - TARGET_KEY]?.item?.target?.role === 'btn' &&
      found.values.has(t.step) &&
      goal.startsWith(t.value.trim().toLowerCase()),
  );
}

const stepOfKey = (key: number) =>
  key >= COUNT_KEY ? key - COUNT_KEY : key >= TARGET_KEY ? key - TARGET_KEY : key;

/** The parameters with a traced element name counted under its step, like a typed value. */
function withStepsOf(found: ReturnType<typeof findParameters>): ReturnType<typeof findParameters> {
  return {
    ...found,
    parameters: found.parameters.map((p) => ({
      ...p,
      steps: [...new Set(p.steps.map(stepOfKey))].sort((a, b) => a - b),
    })),
  };
}

/**
 * What the goal's values may be traced into: the text typed and the options chosen, and the
 * names of elements clicked by a name the goal gave ("Choose Neurology", "Open Data Analyst"),
 * traced like a chosen option and keyed apart from the typed values.
 */
function tracedOf(flat: readonly FlatStep[]): TracedValue[] {
  const typed: TracedValue[] = flat.flatMap(({ item }, step) =>
    item && (item.action.name === 'setValue' || item.action.name === 'select')
      ? [
          {
            step,
            value: valueOf(item.action) ?? '',
            label: item.target?.name ?? '',
            caseless: item.action.name === 'select',
          },
        ]
      : [],
  );
  const named: TracedValue[] = flat.flatMap(({ item }, step) =>
    item?.target &&
    CLICKS.has(item.action.name) &&
    Object.hasOwn(CHOICES, item.target.role) &&
    item.target.name.trim() !== ''
      ? [
          {
            step: TARGET_KEY + step,
            value: item.target.name,
            // Named after what it is ({option}, {link}): its neighbour's text would name it after
            // another item of the list ("Frontend Developer" for the job after it).
            label: CHOICES[item.target.role] as string,
            // Written as the page writes it: "Show me the recent patients" names no element by
            // its words, while "Choose Neurology" names one (a parameter only a name can fill).
            caseless: false,
            // "Approve INV-1003" for "Approve invoice INV-1003": the invoice is the value.
            partial: 'also',
          },
        ]
      : [],
  );
  // The first collect's count: "Extract 15 job listings" reruns as "Extract 10 job listings".
  const first = flat.findIndex((f) => f.collect?.limit != null);
  const limit = flat[first]?.collect?.limit;
  const counted: TracedValue[] =
    limit == null ? [] : [{ step: COUNT_KEY + first, value: String(limit), label: 'count' }];
  return [...typed, ...named, ...counted];
}

/** One step of the run as the routine keeps it, with its parameters in place. */
function routineStepOf(
  { entry, item, read, collect, index, last, safety }: FlatStep,
  step: number,
  found: ReturnType<typeof withStepsOf>,
): RoutineStep {
  if (!item)
    return {
      action: collect ? ROUTINE_COLLECT : ROUTINE_EXTRACT,
      target: null,
      value: escapeTemplate(collect ? collect.type : (read ?? '')),
      chained: false,
      expect: entry.expect,
      safety,
      optional: false,
      page: { url: entry.beforeUrl.slice(0, 8_192) },
    };
  const parts = found.values.get(step);
  const value = valueOf(item.action);
  return {
    action: item.action.name as RoutineStep['action'],
    target: item.target
      ? {
          fingerprint: item.target.fingerprint,
          locators: item.target.locators,
          ...(found.values.has(TARGET_KEY + step)
            ? { name: renderTemplate(found.values.get(TARGET_KEY + step) as TemplatePart[]) }
            : {}),
        }
      : null,
    value: parts ? renderTemplate(parts) : value === null ? null : escapeTemplate(value),
    chained: !last,
    expect: last ? entry.expect : null,
    safety,
    optional: entry.contingency,
    // Where the unit starts: a rerun on another page (the same form elsewhere) stops there.
    ...(index === 0 ? { page: { url: entry.beforeUrl.slice(0, 8_192) } } : {}),
  };
}

export function compileRoutine(input: CompileInput): CompileResult {
  if (input.status !== 'completed') return refuse(`the task is ${input.status}, not completed`);
  if (input.trace.length === 0) return refuse('no verified steps');
  if (input.trace.length > ROUTINE_LIMITS.steps) return refuse('too many steps for a routine');
  const kept = verifiedEntries(input.trace);
  if (!kept.ok) return refuse(kept.reason);
  const flat = flatten(kept.entries);
  if (typeof flat === 'string') return refuse(flat);
  if (flat.length === 0) return refuse('no verified steps');
  if (flat.length > ROUTINE_LIMITS.steps) return refuse('too many steps for a routine');
  const site = hostOf(kept.entries[0]?.beforeUrl);
  if (!site) return refuse('the start page has no site');

  const traced = tracedOf(flat);
  let params = findParameters(input.query, traced);
  const verbs = verbButtons(flat, traced, params);
  // A second reading with them literal: their words are the goal's own, not a value, though a
  // distinctive value inside one still is ("Approve INV-1003" for "Approve INV-1003 today").
  if (verbs.length > 0)
    params = findParameters(
      input.query,
      traced.map((t) => (verbs.includes(t) ? { ...t, partial: 'only' as const } : t)),
    );
  const found = withStepsOf(params);
  const steps = flat.map((f, step) => routineStepOf(f, step, found));
  const goalTemplate = renderTemplate(found.goal);
  // The parameters must give back what the run did; anything else is a compiler bug, and a
  // routine that types other values than its run is worse than none.
  const examples = Object.fromEntries(found.parameters.map((p) => [p.name, p.example]));
  if (fillTemplate(goalTemplate, examples) !== found.plainGoal)
    return refuse('the goal template does not give back the goal');
  for (const [i, step] of steps.entries()) {
    const item = (flat[i] as FlatStep).item;
    if (!item) continue;
    const action = item.action;
    const value = valueOf(action);
    const filled = step.value === null ? null : fillTemplate(step.value, examples);
    const same =
      action.name === 'select' ? filled?.toLowerCase() === value?.toLowerCase() : filled === value;
    if (!same) return refuse(`step ${i + 1}'s value does not give back what was typed`);
    const name = step.target?.name;
    const target = item.target;
    if (name && fillTemplate(name, examples).toLowerCase() !== target?.name.toLowerCase())
      return refuse(`step ${i + 1}'s element name does not give back the one clicked`);
  }
  const draft = RoutineDraft.safeParse({
    site,
    goalTemplate,
    name: defaultRoutineName(goalTemplate),
    parameters: found.parameters,
    steps,
  });
  if (!draft.success) return refuse(`not a valid routine: ${draft.error.issues[0]?.message ?? ''}`);
  return { ok: true, draft: draft.data };
}
