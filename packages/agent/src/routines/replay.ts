// One routine step made into an action again, and its outcome checked without a model.
// The action is built as the grammar's ParsedAction and formatted by the grammar itself, so a
// rerun sends exactly the kind of string a model's action would be (and the same checks apply
// downstream). Values come only from the run's parameters: a step whose template names another
// parameter, or a run that brings values the routine never declared, is refused, because the
// one thing a rerun must never do is type something other than what the goal said.
import {
  formatAction,
  MASKED_VALUE,
  ParsedAction,
  SCROLL_DIRECTIONS,
  type RoutineExpectation,
  type RoutineParameter,
  type RoutineStep,
  type SemanticNodeV3,
  fillTemplate,
  parseTemplate,
  type TemplatePart,
} from '@tandem/contracts';
import { domHash, findNode, hasState, type PageState } from '../page/page-state';

export type StepInstance =
  { ok: true; action: string; parsed: ParsedAction } | { ok: false; reason: string };

const refuse = (reason: string): StepInstance => ({ ok: false, reason });

/**
 * The action string for `step` with `values` substituted and `id` as its element. Refuses
 * (with the reason) when a value is not one of the routine's parameters, when the step's
 * template uses a parameter the routine does not declare or the run gives no value for, when
 * the id is missing for a step on an element (or given for one on none), or when the result is
 * not a valid action of the grammar (a wait that is not a number, a URL that is not http(s)).
 */
export function instantiateStep(
  step: Pick<RoutineStep, 'action' | 'target' | 'value'>,
  parameters: readonly Pick<RoutineParameter, 'name'>[],
  values: Readonly<Record<string, string>>,
  id: string | null,
): StepInstance {
  const declared = new Set(parameters.map((p) => p.name));
  const stray = Object.keys(values).find((name) => !declared.has(name));
  if (stray !== undefined) return refuse(`${stray} is not a parameter of the routine`);
  let value: string | null = null;
  if (step.value !== null) {
    let parts: TemplatePart[];
    try {
      parts = parseTemplate(step.value);
    } catch (error) {
      return refuse(`the step's value is malformed: ${String(error)}`);
    }
    for (const part of parts) {
      if (typeof part === 'string') continue;
      if (!declared.has(part.param)) return refuse(`{${part.param}} is not a routine parameter`);
      if (typeof values[part.param] !== 'string') return refuse(`no value for {${part.param}}`);
    }
    value = fillTemplate(step.value, values);
  }
  if (step.target !== null && id === null) return refuse(`${step.action} needs its element`);
  if (step.target === null && id !== null) return refuse(`${step.action} acts on no element`);

  const args = argsOf(step.action, value, step.target === null ? null : id);
  if (typeof args === 'string') return refuse(args);
  const parsed = ParsedAction.safeParse({ name: step.action, args });
  if (!parsed.success)
    return refuse(`not a valid ${step.action}: ${parsed.error.issues[0]?.message ?? ''}`);
  return { ok: true, action: formatAction(parsed.data), parsed: parsed.data };
}

/** The action's arguments, as compile.ts's valueOf took them apart; a string: why not. */
function argsOf(
  action: RoutineStep['action'],
  value: string | null,
  id: string | null,
): Record<string, unknown> | string {
  const need = (what: string) => `${action} needs ${what}`;
  switch (action) {
    case 'click':
    case 'hover':
      return { id };
    case 'setValue':
      return value === null ? need('the text to type') : { id, text: value };
    case 'select':
      return value === null ? need('the option') : { id, option: value };
    case 'press':
      return value === null ? need('the key') : { key: value };
    case 'navigate':
      return value === null ? need('the URL') : { url: value };
    case 'goBack':
      return {};
    case 'wait': {
      const seconds = value === null ? NaN : Number(value);
      return Number.isFinite(seconds) ? { seconds } : need('a number of seconds');
    }
    case 'scroll':
      if (id !== null) return { id };
      return value !== null && (SCROLL_DIRECTIONS as readonly string[]).includes(value)
        ? { direction: value }
        : need('a direction or its element');
    case 'extract':
    case 'collect':
      // Read on the server from a content snapshot (step-node.ts), never sent as an action.
      return `${action} is read on the server, not sent to the page`;
  }
}

/** The page before the step's unit was sent: what tier 1 compares the page after it with. */
export interface StepBefore {
  url: string;
  /** domHash of the tree before (page-state.ts); without it, "the page changed" is not checked. */
  domHash?: string;
  /** semanticSkeleton of the tree before; without it, recorded text is not checked as new. */
  skeleton?: string;
}

/**
 * The pairs checkOutcome substitutes in recorded text: each parameter's first-run example and
 * this run's value (a parameter the run gives no value for keeps its example).
 */
export function substitutionsOf(
  parameters: readonly Pick<RoutineParameter, 'name' | 'example'>[],
  values: Readonly<Record<string, string>>,
): { example: string; value: string }[] {
  return parameters.map((p) => ({
    example: p.example,
    value: Object.hasOwn(values, p.name) ? (values[p.name] as string) : p.example,
  }));
}

export type OutcomeCheck = { verified: true } | { verified: false; reason: string };

/**
 * Whether the page after a step's unit (one action, or a chain: its actions in `actions`) shows
 * the outcome the first run recorded, by tier-1 facts only. Rules:
 * - the client's own report first: a failed action or errors on the page fail the step;
 * - `urlChanged`: the URL must have changed, to a page like the recorded one (same host, same
 *   path with segments holding digits taken as ids: /patients/17 is like /patients/18); and
 *   a step that did not move must not move now (a fragment change aside);
 * - `domChanged`: something must have changed (with `before.domHash`);
 * - `fieldsHold`: every field the unit typed into or chose from holds its value (tier 1's rule:
 *   typed text exactly, or masked; an option ignoring case);
 * - `text`: each text the step made appear is shown now (messages, title, elements), with the
 *   first run's parameter values replaced by this run's (`substitute`) and numbers taken as
 *   any number (a record id, a time); and, with `before.skeleton`, it was not shown before.
 * `network` is not a fact to check but a reason to wait: the caller lets the page settle first.
 * A step the first run could only verify with a model (tier 2/3) and that leaves no tier-1
 * fact to check is not verified here: the caller decides whether to ask.
 */
export function checkOutcome(
  expect: RoutineExpectation,
  actions: readonly ParsedAction[],
  before: StepBefore,
  page: PageState,
  substitute: ReadonlyArray<{ example: string; value: string }> = [],
): OutcomeCheck {
  const fail = (reason: string): OutcomeCheck => ({ verified: false, reason });
  if (page.lastActionStatus === 'failure')
    return fail(
      `the extension reported the action failed${page.lastActionError ? `: ${page.lastActionError}` : ''}`,
    );
  if (page.hasErrors && page.errors.length > 0)
    return fail(`the page shows errors: ${page.errors.join('; ')}`);

  const moved = page.url !== before.url || page.observations.didUrlChange === true;
  if (expect.urlChanged) {
    if (!moved) return fail(`the page did not move (expected a page like ${expect.url})`);
    if (!likeUrl(page.url, expect.url))
      return fail(`the page moved to ${page.url}, not a page like ${expect.url}`);
  } else if (withoutHash(page.url) !== withoutHash(before.url)) {
    return fail(`the page moved to ${page.url}; the step did not move in the first run`);
  }
  let checked = expect.urlChanged;

  if (expect.domChanged && before.domHash !== undefined) {
    const changed = domHash(page.tree) !== before.domHash || page.observations.didDomMutate;
    if (!changed) return fail('nothing changed on the page');
    checked = true;
  }

  if (expect.fieldsHold) {
    for (const a of actions) {
      if (a.name !== 'setValue' && a.name !== 'select') continue;
      const problem = fieldProblem(findNode(page.tree, a.args.id), a);
      if (problem) return fail(problem);
      checked = true;
    }
  }

  for (const recorded of expect.text) {
    const text = substituted(recorded, substitute);
    if (!shows(page, text)) return fail(`the page does not show “${text}”`);
    if (before.skeleton !== undefined && includes(before.skeleton, text))
      return fail(`“${text}” was on the page before the step`);
    checked = true;
  }

  if (!checked && expect.tier > 1)
    return fail('the first run needed a model to verify this step; tier 1 has nothing to check');
  return { verified: true };
}

function fieldProblem(
  node: SemanticNodeV3 | undefined,
  a: Extract<ParsedAction, { name: 'setValue' | 'select' }>,
): string | null {
  if (!node) return `field ${a.args.id} is no longer on the page`;
  const expected = a.name === 'setValue' ? a.args.text : a.args.option;
  const value = node.v ?? '';
  const ok =
    a.name === 'setValue'
      ? value === expected ||
        (value === MASKED_VALUE && expected !== '') ||
        (node.r === 'edit' && value.includes(expected))
      : value.toLowerCase().includes(expected.toLowerCase());
  if (!ok) return `“${node.n ?? a.args.id}” holds “${value}”, expected “${expected}”`;
  if (hasState(node, 'invalid')) return `“${node.n ?? a.args.id}” is marked invalid`;
  return null;
}

const withoutHash = (url: string) => url.replace(/#.*$/, '');

/**
 * Why step `k` may not run on the tab's page: it was saved on a page not like this one (the
 * same form elsewhere may do something else). Null when it may.
 */
export function offPage(step: RoutineStep, url: string, k: number, does: string): string | null {
  return step.page && !likeUrl(url, step.page.url)
    ? `step ${k + 1} ${does} on a page like ${step.page.url}, and the tab is on ${url}`
    : null;
}

/** Same host and path, a segment with a digit standing for any other such segment. */
export function likeUrl(actual: string, expected: string): boolean {
  let a: URL;
  let e: URL;
  try {
    a = new URL(actual);
    e = new URL(expected);
  } catch {
    return actual === expected;
  }
  if (a.host !== e.host) return false;
  const segments = (u: URL) => u.pathname.split('/').filter(Boolean);
  const [as, es] = [segments(a), segments(e)];
  return (
    as.length === es.length &&
    as.every((s, i) => s === es[i] || (/\d/.test(s) && /\d/.test(es[i] as string)))
  );
}

/**
 * The recorded text with the first run's values replaced by this run's, ignoring case (a
 * chosen option is matched that way too), longest first so "Jas Patel" goes before "Jas", and
 * only as whole words: a ward "7" must not turn "#17" into "#19".
 */
function substituted(
  text: string,
  pairs: ReadonlyArray<{ example: string; value: string }>,
): string {
  const sorted = pairs
    .filter((p) => p.example.trim() !== '')
    .sort((x, y) => y.example.length - x.example.length);
  if (sorted.length === 0) return text;
  const alternatives = sorted.map((p) => p.example.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  return text.replace(
    pattern,
    (hit) => sorted.find((p) => p.example.toLowerCase() === hit.toLowerCase())?.value ?? hit,
  );
}

/** Numbers as one token, case and spacing ignored: "Saved #17 at 9:40" is "saved #18 at 10:02". */
const loose = (text: string) => text.toLowerCase().replace(/\d+/g, '0').replace(/\s+/g, ' ').trim();
const includes = (haystack: string | undefined, text: string) =>
  loose(haystack ?? '').includes(loose(text));

const shows = (page: PageState, text: string) =>
  page.successMessages.some((m) => includes(m, text)) ||
  includes(page.title, text) ||
  page.tree.some((n) => !n.occ && (includes(n.n, text) || includes(n.v, text)));
