// Does a new goal ask for what a routine does, and with which values? Decided without a
// model wherever the text can decide it: the template's literal text must be in the goal
// (ignoring case and runs of whitespace) and each `{name}` takes the goal's text between. When
// the text allows more than one split ("Add Mary Ann Smith" against "Add {firstName}
// {lastName}"), every split is returned: that is the one place a rerun may ask a cheap
// classification call, and guessing there would type a wrong name into a real form.
import { type RoutineParameter, parseTemplate, type TemplatePart } from '@tandem/contracts';
import type { Routine, RoutineRepository } from '@tandem/store';
import { unmark } from './parameters';

export type RoutineValues = Record<string, string>;

export type RoutineMatch =
  | { match: true; values: RoutineValues }
  | { match: false; reason: string }
  | { match: 'ambiguous'; candidates: RoutineValues[] };

/** What matching reads of a routine. */
export type MatchableRoutine = Pick<Routine, 'goalTemplate'> & {
  parameters: readonly Pick<RoutineParameter, 'name'>[];
};

/** More splits than this are not worth a classification call: the goal is returned as such. */
export const MAX_CANDIDATES = 8;
/** Bounds the search on long goals full of the same separator (" ", ","). */
const MAX_STEPS = 20_000;

/**
 * Text folded for comparison (lower case, whitespace runs as one space, trimmed), with where
 * each folded code unit came from, so a captured value is always a slice of the goal itself.
 */
interface Folded {
  text: string;
  /** Source index of folded unit k, and the source index just past it. */
  from: number[];
  to: number[];
}

function fold(source: string, trim: boolean): Folded {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const ch of source) {
    const start = at;
    at += ch.length;
    if (/\s/.test(ch)) {
      if (text.endsWith(' ') || (trim && text === '')) continue;
      text += ' ';
      from.push(start);
      to.push(at);
      continue;
    }
    // Lower-casing may lengthen a character (İ → i̇): each unit keeps the character's span.
    for (const unit of ch.toLowerCase()) {
      for (let k = 0; k < unit.length; k++) {
        from.push(start);
        to.push(at);
      }
      text += unit;
    }
  }
  if (trim && text.endsWith(' ')) {
    text = text.slice(0, -1);
    from.pop();
    to.pop();
  }
  return { text, from, to };
}

type Part = { literal: string } | { param: string };

/** The template's parts with their literal text folded like the goal. */
function foldedParts(parts: readonly TemplatePart[]): Part[] {
  const out: Part[] = [];
  parts.forEach((p, i) => {
    if (typeof p !== 'string') {
      out.push({ param: p.param });
      return;
    }
    let literal = fold(p, false).text;
    // The goal is trimmed: so are the template's ends.
    if (i === 0) literal = literal.trimStart();
    if (i === parts.length - 1) literal = literal.trimEnd();
    if (literal !== '') out.push({ literal });
  });
  return out;
}

interface Split {
  values: Map<string, string>;
  /** Each parameter's span in the (unmarked) goal. */
  spans: Map<string, [number, number]>;
}

/** Every way the goal reads as the template, up to MAX_CANDIDATES + 1; null past the budget. */
function splits(goal: string, parts: readonly Part[]): Split[] | null {
  const g = fold(goal, true);
  const found: Split[] = [];
  let steps = 0;
  // Maps, not objects: a parameter may be called `constructor` or `toString`.
  const values = new Map<string, string>();
  const spans = new Map<string, [number, number]>();

  const capture = (name: string, start: number, end: number): boolean => {
    let s = g.from[start] as number;
    let e = g.to[end - 1] as number;
    while (s < e && /\s/.test(goal[s] as string)) s++;
    while (e > s && /\s/.test(goal[e - 1] as string)) e--;
    if (s === e) return false;
    const value = goal.slice(s, e);
    // The same parameter twice in the template: the goal must say the same both times.
    if (values.has(name)) return values.get(name) === value;
    values.set(name, value);
    spans.set(name, [s, e]);
    return true;
  };
  const release = (name: string, had: boolean) => {
    if (had) return;
    values.delete(name);
    spans.delete(name);
  };

  const walk = (index: number, pos: number): boolean => {
    if (++steps > MAX_STEPS) return false;
    if (found.length > MAX_CANDIDATES) return true;
    const part = parts[index];
    if (!part) {
      if (pos === g.text.length) found.push({ values: new Map(values), spans: new Map(spans) });
      return true;
    }
    if ('literal' in part)
      return !g.text.startsWith(part.literal, pos) || walk(index + 1, pos + part.literal.length);
    const next = parts[index + 1];
    const ends: number[] = [];
    if (!next) ends.push(g.text.length);
    else if ('literal' in next) {
      for (let k = g.text.indexOf(next.literal, pos + 1); k >= 0;) {
        ends.push(k);
        k = g.text.indexOf(next.literal, k + 1);
      }
    } else for (let k = pos + 1; k < g.text.length; k++) ends.push(k);
    for (const end of ends) {
      if (end <= pos) continue;
      const had = values.has(part.param);
      if (capture(part.param, pos, end)) {
        const ok = walk(index + 1, end);
        release(part.param, had);
        if (!ok) return false;
      }
    }
    return true;
  };
  return walk(0, 0) ? found : null;
}

/**
 * Whether `goal` is an instance of the routine's template, and its parameters' values (each a
 * non-empty, trimmed slice of the goal). Explicit `{{…}}` markers in the goal are read as the
 * compiler reads them: their values are the goal's text, `{{name=value}}` fixes the parameter
 * `name` (when the routine has one) to that value, and an unnamed marker prefers the splits
 * that take its value as one parameter's.
 */
export function matchGoal(goal: string, routine: MatchableRoutine): RoutineMatch {
  let template: TemplatePart[];
  try {
    template = parseTemplate(routine.goalTemplate);
  } catch (error) {
    return { match: false, reason: `the routine's template is malformed: ${String(error)}` };
  }
  const declared = new Set(routine.parameters.map((p) => p.name));
  const used = new Set(template.flatMap((p) => (typeof p === 'string' ? [] : [p.param])));
  for (const name of used)
    if (!declared.has(name))
      return { match: false, reason: `the template uses {${name}}, not a routine parameter` };
  for (const name of declared)
    if (!used.has(name))
      return { match: false, reason: `the parameter ${name} is not in the template` };

  const { plain, marked } = unmark(goal);
  const all = splits(plain, foldedParts(template));
  if (all === null) return { match: false, reason: 'too many ways to read the goal' };
  if (all.length === 0)
    return { match: false, reason: 'the goal does not read as the routine’s template' };

  // A named marker is the user saying which value is which: a hard rule.
  const sameSpan = (a: [number, number] | undefined, m: { start: number; end: number }) =>
    a !== undefined && a[0] === m.start && a[1] === m.end;
  const named = marked.filter((m) => m.name !== null && declared.has(m.name));
  const kept = all.filter((s) => named.every((m) => sameSpan(s.spans.get(m.name as string), m)));
  if (kept.length === 0)
    return {
      match: false,
      reason: 'the goal’s {{name=value}} markers do not fall on those parameters',
    };
  // An unnamed marker (or one naming no parameter of the routine) only breaks ties: its value
  // taken whole is likelier what the user meant than a split through it.
  const loose = marked.filter((m) => !named.includes(m));
  const preferred = kept.filter((s) =>
    loose.every((m) => [...s.spans.values()].some((span) => sameSpan(span, m))),
  );
  const result = unique(preferred.length > 0 ? preferred : kept);
  if (result.length === 1) return { match: true, values: result[0] as RoutineValues };
  return { match: 'ambiguous', candidates: result.slice(0, MAX_CANDIDATES) };
}

/** Splits that give the same values (a parameter said twice) are one reading. */
function unique(found: readonly Split[]): RoutineValues[] {
  const seen = new Map<string, RoutineValues>();
  for (const s of found) {
    const entries = [...s.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify(entries);
    if (!seen.has(key)) seen.set(key, Object.fromEntries(entries));
  }
  return [...seen.values()];
}

export type RoutineLookup = {
  routine: Routine;
  match: Extract<RoutineMatch, { match: true } | { match: 'ambiguous' }>;
} | null;

/** How many versions of a site's routines a lookup reads at most (pages of 100). */
const MAX_SCANNED = 1_000;

/**
 * The routine a goal on `site` should rerun: the latest enabled version of a template the goal
 * matches. A definite match wins over an ambiguous one (it needs no model call, and the
 * ambiguous template may not be what was meant); among equals, the routine saved last wins.
 * Null when no enabled routine of the site matches (and may run here).
 */
export async function findRoutineForGoal(
  routines: Pick<RoutineRepository, 'list' | 'findLatest'>,
  tenantId: string,
  site: string,
  goal: string,
  /** A version that may run here (its start page is the tab's); others are passed over. */
  runsHere: (routine: Routine) => boolean = () => true,
): Promise<RoutineLookup> {
  // Newest first: each template is matched once, against its newest version's parameters.
  const templates = new Map<string, Routine>();
  let cursor: string | null = null;
  let scanned = 0;
  do {
    const page = await routines.list(tenantId, { site, limit: 100, cursor });
    for (const r of page.items)
      if (!templates.has(r.goalTemplate)) templates.set(r.goalTemplate, r);
    scanned += page.items.length;
    cursor = page.nextCursor;
  } while (cursor && scanned < MAX_SCANNED);

  let ambiguous: RoutineLookup = null;
  for (const [goalTemplate, newest] of templates) {
    if (matchGoal(goal, newest).match === false) continue;
    // The store says which version runs: the highest enabled one (none when all are off).
    const routine = await routines.findLatest(tenantId, { site, goalTemplate });
    if (!routine || !runsHere(routine)) continue;
    const match = matchGoal(goal, routine);
    if (match.match === true) return { routine, match };
    if (match.match === 'ambiguous') ambiguous ??= { routine, match };
  }
  return ambiguous;
}
