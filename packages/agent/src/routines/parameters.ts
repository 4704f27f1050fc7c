// Parameter discovery: which parts of a run's typed text and chosen options came
// from the goal. No special syntax is needed: each value is traced back into the goal's words
// ("Jas Patel" in the goal, "Jas" typed into First name and "Patel" into Last name → {firstName},
// {lastName}). Only a whole value that is exactly a run of the goal's words counts, so a value
// that merely contains a goal word, or a goal word that was never typed, stays literal. The one
// exception is a clicked element's name, which may hold a distinctive value inside it ("Approve
// INV-1003" for "Approve invoice INV-1003"; see distinctive).
// Explicit `{{value}}` or `{{name=value}}` in the goal marks a parameter too (`{{secret:…}}`
// is a secret reference, never a parameter).
import type { TemplatePart } from '@tandem/contracts';

/** A value a step typed or chose, and the label of the field it went into. */
export interface TracedValue {
  step: number;
  value: string;
  label: string;
  /**
   * Chosen options match the goal ignoring case ("female" in the goal, "Female" chosen): a
   * select finds its option either way. Typed text must match exactly.
   */
  caseless?: boolean;
  /**
   * A clicked element's name: when it is not a run of the goal's words as a whole, a
   * distinctive run of its words that is one may be traced alone ("INV-1003" in "Approve
   * INV-1003"), the rest of the name staying literal around it. `only`: the name as a whole is
   * the goal's verb (compile.ts verbButtons), so only such a run inside it may be traced.
   */
  partial?: 'also' | 'only';
}

export interface FoundParameter {
  name: string;
  /** The goal's text for it (the first run's value). */
  example: string;
  source: 'goal' | 'explicit';
  steps: number[];
}

export interface ParameterResult {
  parameters: FoundParameter[];
  /** The goal's pieces: text, and parameters where their values were. */
  goal: TemplatePart[];
  /** The goal as the model read it: explicit markers replaced by their values. */
  plainGoal: string;
  /** Per traced step, the value's pieces (absent: the value stays literal). */
  values: Map<number, TemplatePart[]>;
}

const EXPLICIT = /\{\{\s*(?!secret:)(?:([A-Za-z][A-Za-z0-9_]{0,63})\s*=\s*)?([^{}]*?\S)\s*\}\}/g;
const LEADING = /^["'“‘«(<[]+/;
const TRAILING = /["'”’»)>\].,;:!?]+$/;
/** Longest run of goal words one value may be (a full address is about this long). */
const MAX_WORDS = 12;

interface Token {
  rawStart: number;
  rawEnd: number;
  coreStart: number;
  coreEnd: number;
}

interface Assignment {
  start: number;
  end: number;
  param: number;
}

interface Param {
  example: string;
  source: 'goal' | 'explicit';
  explicitName: string | null;
  label: string | null;
  steps: Set<number>;
  firstAt: number;
}

/**
 * The goal without its explicit markers, and where each marked value now is. Exported for the
 * rerun's goal match (match.ts), which must read a goal's markers exactly as the compiler did.
 */
export function unmark(goal: string): {
  plain: string;
  marked: { start: number; end: number; name: string | null }[];
} {
  let plain = '';
  let last = 0;
  const marked: { start: number; end: number; name: string | null }[] = [];
  for (const m of goal.matchAll(EXPLICIT)) {
    plain += goal.slice(last, m.index);
    const value = (m[2] as string).trimStart();
    marked.push({ start: plain.length, end: plain.length + value.length, name: m[1] ?? null });
    plain += value;
    last = m.index + m[0].length;
  }
  return { plain: plain + goal.slice(last), marked };
}

/** The goal as the model reads it: `{{firstName=Jas}}` is just "Jas". */
export const withoutMarkers = (goal: string): string => unmark(goal).plain;

function tokensOf(text: string): Token[] {
  return [...text.matchAll(/\S+/g)].map((m) => {
    const raw = m[0];
    const lead = LEADING.exec(raw)?.[0].length ?? 0;
    const trail = lead < raw.length ? (TRAILING.exec(raw.slice(lead))?.[0].length ?? 0) : 0;
    const rawStart = m.index;
    const rawEnd = rawStart + raw.length;
    return {
      rawStart,
      rawEnd,
      coreStart: rawStart + lead,
      coreEnd: Math.max(rawStart + lead, rawEnd - trail),
    };
  });
}

/** Where in the goal a value is, as whole runs of words (with or without their punctuation). */
function occurrences(
  plain: string,
  tokens: readonly Token[],
  value: string,
  caseless: boolean,
): [number, number][] {
  const same = caseless
    ? (a: string) => a.toLowerCase() === value.toLowerCase()
    : (a: string) => a === value;
  const found = new Map<string, [number, number]>();
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i] as Token;
    for (let j = i; j < tokens.length && j < i + MAX_WORDS; j++) {
      const last = tokens[j] as Token;
      if (last.rawEnd - first.rawStart < value.length) continue;
      for (const start of [first.coreStart, first.rawStart]) {
        for (const end of [last.coreEnd, last.rawEnd]) {
          if (end > start && same(plain.slice(start, end)))
            found.set(`${start}:${end}`, [start, end]);
        }
      }
      if (first.rawStart + value.length < last.coreStart) break;
    }
  }
  // Shortest-first overlap removal: "Jas" at 4 and "Jas," at 4 are one occurrence.
  const spans = [...found.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return spans.filter((s, i) => i === 0 || s[0] >= (spans[i - 1] as [number, number])[1]);
}

/** `firstName` from "First name"; null when the label has no letters or digits. */
export function parameterNameOf(label: string): string | null {
  const words = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (words.length === 0) return null;
  const joined = words.map((w, i) => (i === 0 ? w : w[0]?.toUpperCase() + w.slice(1))).join('');
  const name = /^[a-z]/.test(joined) ? joined : `field${joined}`;
  return name.slice(0, 48);
}

/** The goal being traced: its text, its words, the parameters so far and where they sit. */
interface Tracing {
  plain: string;
  tokens: Token[];
  params: Param[];
  assigned: Assignment[];
}

/** The pieces of goal text [start, end): parameters (by index) where assigned, text between. */
function partsOf(t: Tracing, start: number, end: number): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = start;
  for (const a of [...t.assigned].sort((x, y) => x.start - y.start)) {
    if (a.start < start || a.end > end) continue;
    if (a.start > at) parts.push(t.plain.slice(at, a.start));
    parts.push({ param: String(a.param) });
    at = a.end;
  }
  if (end > at) parts.push(t.plain.slice(at, end));
  return parts;
}

/** A typed value's pieces, found in the goal (new parameters are added); null: not there. */
function traceValue(t: Tracing, traced: TracedValue): TemplatePart[] | null {
  const core = traced.value.trim();
  if (core === '' || /\{\{\s*secret:/i.test(core)) return null;
  if (traced.partial === 'only') return tracePartly(t, core, traced);
  return traceText(t, core, traced) ?? (traced.partial ? tracePartly(t, core, traced) : null);
}

/** Words of a name that carry a value of their own (see distinctive). */
const IDENTIFIER = /^(?=.*\d)\S+$|^[\p{L}\d]+(?:[-_.@#/:][\p{L}\d]+)+$/u;
const CAPITALISED = /^\p{Lu}[\p{L}'’-]*\p{Ll}[\p{L}'’-]*$/u;

/**
 * Whether a run of words inside an element's name is distinctive enough to be a value the goal
 * gave, and not a word the name shares with the goal's prose ("Add", "Approve", "patient"):
 * - one identifier-like word: it holds a digit ("INV-1003", "12B"), or it joins letters with
 *   one of `-_.@#/:` and has `_`, `@` or two capitals ("ACME-EU", "ops@acme.test"), while a
 *   plain hyphenated word ("Follow-up", "e-mail") is prose;
 * - or two or more capitalised words, as a proper name is written ("Jas Patel", "Data
 *   Analyst"); one capitalised word may just open a sentence or label a button.
 * A wrong guess costs little on the page (a rerun looks for the element its own value names,
 * and heals when there is none) but would widen the template to goals the routine never did.
 */
export function distinctive(words: readonly string[]): boolean {
  if (words.length === 1) {
    const [word] = words as [string];
    if (!IDENTIFIER.test(word)) return false;
    return /\d/.test(word) || /[_@]/.test(word) || (word.match(/\p{Lu}/gu) ?? []).length >= 2;
  }
  return words.length > 1 && words.every((w) => CAPITALISED.test(w));
}

/**
 * A name's pieces with its distinctive runs of goal words as parameters, the rest literal; null
 * when it has none. Longest runs first, left to right, matched in the case the page writes
 * (the name's own `caseless`). A run the goal opens with is its verb or its subject ("Save
 * Draft and close" for the button "Save Draft changes"), never a value.
 */
function tracePartly(t: Tracing, core: string, traced: TracedValue): TemplatePart[] | null {
  const words = tokensOf(core);
  const opening = t.tokens[0]?.rawStart ?? 0;
  const parts: TemplatePart[] = [];
  let at = 0;
  let traces = false;
  for (let i = 0; i < words.length; i++) {
    for (let j = Math.min(words.length, i + MAX_WORDS) - 1; j >= i; j--) {
      if (i === 0 && j === words.length - 1) continue;
      const run = words.slice(i, j + 1).map((w) => core.slice(w.coreStart, w.coreEnd));
      if (!distinctive(run)) continue;
      const start = (words[i] as Token).coreStart;
      const end = (words[j] as Token).coreEnd;
      const found = traceText(t, core.slice(start, end), traced, (s) => s > opening);
      if (!found) continue;
      if (start > at) parts.push(core.slice(at, start));
      parts.push(...found);
      at = end;
      traces = true;
      i = j;
      break;
    }
  }
  if (!traces) return null;
  if (at < core.length) parts.push(core.slice(at));
  return parts;
}

/**
 * Text's pieces as whole runs of the goal's words (new parameters are added); null: not there.
 * `where` keeps only the runs starting at the goal offsets it accepts.
 */
function traceText(
  t: Tracing,
  core: string,
  traced: TracedValue,
  where: (start: number) => boolean = () => true,
): TemplatePart[] | null {
  // A run of words that cuts through a parameter's words is not the value.
  const cuts = (start: number, end: number) =>
    t.assigned.some((a) => a.start < end && a.end > start && (a.start < start || a.end > end));
  const spans = occurrences(t.plain, t.tokens, core, traced.caseless === true).filter(
    ([s, e]) => !cuts(s, e) && where(s),
  );
  if (spans.length === 0) return null;
  const exact = spans
    .map(([s, e]) => t.assigned.find((a) => a.start === s && a.end === e))
    .find(Boolean);
  if (exact) return [{ param: String(exact.param) }];
  const inside = spans.find(([s, e]) => t.assigned.some((a) => a.start >= s && a.end <= e));
  // Composed of parameters already found (and literal goal text between them).
  if (inside) return partsOf(t, inside[0], inside[1]);
  const [first] = spans[0] as [number, number];
  t.params.push({
    // The goal's own text: a caseless match keeps the goal's case.
    example: t.plain.slice(first, (spans[0] as [number, number])[1]),
    source: 'goal',
    explicitName: null,
    label: traced.label,
    steps: new Set(),
    firstAt: first,
  });
  const param = t.params.length - 1;
  // Every place the goal says it: a rerun's goal must say the same there.
  for (const [start, end] of spans) {
    if (!t.assigned.some((a) => a.start < end && a.end > start))
      t.assigned.push({ start, end, param });
  }
  return [{ param: String(param) }];
}

/** Names in the order the goal shows them: the marker's, the field's label, else param1… */
function nameParameters(params: readonly Param[]): Map<number, string> {
  const names = new Map<number, string>();
  const taken = new Set<string>();
  let unnamed = 0;
  for (const i of rankOf(params)) {
    const p = params[i] as Param;
    const base =
      p.explicitName ?? (p.label ? parameterNameOf(p.label) : null) ?? `param${++unnamed}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    names.set(i, name);
  }
  return names;
}

const rankOf = (params: readonly Param[]): number[] =>
  params.map((_, i) => i).sort((a, b) => (params[a]?.firstAt ?? 0) - (params[b]?.firstAt ?? 0));

export function findParameters(goal: string, traced: readonly TracedValue[]): ParameterResult {
  const { plain, marked } = unmark(goal);
  const t: Tracing = { plain, tokens: tokensOf(plain), params: [], assigned: [] };
  for (const m of marked) {
    t.params.push({
      example: plain.slice(m.start, m.end),
      source: 'explicit',
      explicitName: m.name,
      label: null,
      steps: new Set(),
      firstAt: m.start,
    });
    t.assigned.push({ start: m.start, end: m.end, param: t.params.length - 1 });
  }
  const values = new Map<number, TemplatePart[]>();
  // Short values first: "Jas" and "Patel" claim their words before "Jas Patel" is composed of them.
  const order = [...traced].sort(
    (a, b) => a.value.trim().length - b.value.trim().length || a.step - b.step,
  );
  for (const item of order) {
    const parts = traceValue(t, item);
    if (!parts) continue;
    for (const p of parts) {
      if (typeof p === 'string') continue;
      const param = t.params[Number(p.param)] as Param;
      param.steps.add(item.step);
      param.label ??= item.label;
    }
    const { value } = item;
    const lead = value.slice(0, value.length - value.trimStart().length);
    const trail = value.slice(value.trimEnd().length);
    values.set(item.step, [...(lead ? [lead] : []), ...parts, ...(trail ? [trail] : [])]);
  }
  const names = nameParameters(t.params);
  const rename = (parts: TemplatePart[]): TemplatePart[] =>
    parts.map((p) => (typeof p === 'string' ? p : { param: names.get(Number(p.param)) as string }));
  return {
    parameters: rankOf(t.params).map((i) => {
      const p = t.params[i] as Param;
      return {
        name: names.get(i) as string,
        example: p.example,
        source: p.source,
        steps: [...p.steps].sort((a, b) => a - b),
      };
    }),
    goal: rename(partsOf(t, 0, plain.length)),
    plainGoal: plain,
    values: new Map([...values].map(([step, parts]) => [step, rename(parts)])),
  };
}
