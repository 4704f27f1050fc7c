// The action grammar: the only thing the server ever asks the extension to do. Actions travel
// as strings (what the model writes, what is stored and shown) and as `ParsedAction` objects
// (what the extension executes), and `parseAction(formatAction(a))` gives back `a` exactly.
import { z } from 'zod';
import { formatCount } from './format-count';
import { ELEMENT_ID_MAX_LENGTH, ELEMENT_ID_PATTERN, ElementId } from './semantic-tree';

export const ACTION_NAMES = [
  'click',
  'clickAt',
  'setValue',
  'select',
  'hover',
  'press',
  'scroll',
  'navigate',
  'goBack',
  'wait',
  'finish',
  'fail',
  'googleSearch',
] as const;
export const ActionName = z.enum(ACTION_NAMES);
export type ActionName = z.infer<typeof ActionName>;

export const TERMINAL_ACTION_NAMES = ['finish', 'fail'] as const satisfies readonly ActionName[];

export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right', 'top', 'bottom'] as const;
export const ScrollDirection = z.enum(SCROLL_DIRECTIONS);
export type ScrollDirection = z.infer<typeof ScrollDirection>;

/** Longest text argument (typed value, final answer…); longer text belongs in the store. */
export const ACTION_TEXT_MAX_LENGTH = 20_000;
/** Longest action string accepted at all, so a runaway model output is rejected cheaply. */
export const ACTION_MAX_LENGTH = 50_000;
export const WAIT_MAX_SECONDS = 60;
export const KEY_MAX_LENGTH = 64;
export const URL_MAX_LENGTH = 8_192;
/**
 * Largest coordinate `clickAt` accepts (CSS pixels). Far beyond any real viewport: the
 * extension checks the point against the actual one and refuses points outside it.
 */
export const COORDINATE_MAX = 100_000;

// Directions win over ids in `scroll(...)`, so an element whose id is a direction word could
// never be scrolled by id: rejecting such ids keeps format/parse a true round trip.
const isDirectionWord = (value: string): boolean =>
  (SCROLL_DIRECTIONS as readonly string[]).includes(value.toLowerCase());

// Only http(s): a `javascript:` or `data:` URL executed by the extension would run page-content
// controlled code with the user's session.
const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.trim() === value;
  } catch {
    return false;
  }
};

const Text = z.string().max(ACTION_TEXT_MAX_LENGTH);
const NonEmptyText = Text.min(1);
const HttpUrl = z
  .string()
  .max(URL_MAX_LENGTH)
  .refine(isHttpUrl, { error: 'must be an absolute http(s) URL' });

const withId = <N extends string>(name: N) =>
  z.object({ name: z.literal(name), args: z.object({ id: ElementId }) });

export const ClickAction = withId('click');
export type ClickAction = z.infer<typeof ClickAction>;
export const HoverAction = withId('hover');
export type HoverAction = z.infer<typeof HoverAction>;
const Coordinate = z.number().min(0).max(COORDINATE_MAX);
/**
 * A click at a point of the viewport, in CSS pixels from its top-left corner: for what only a
 * screenshot shows (a button drawn on a canvas, an icon with no accessible name). The server
 * sends it only in hybrid mode, where the model saw the screenshot; the extension clicks the
 * element at that point after the same checks as `click` (in the viewport, visible, enabled,
 * not under an overlay).
 */
export const ClickAtAction = z.object({
  name: z.literal('clickAt'),
  args: z.object({ x: Coordinate, y: Coordinate }),
});
export type ClickAtAction = z.infer<typeof ClickAtAction>;
export const SetValueAction = z.object({
  name: z.literal('setValue'),
  // Empty text is allowed: clearing a field is a real action.
  args: z.object({ id: ElementId, text: Text }),
});
export type SetValueAction = z.infer<typeof SetValueAction>;
export const SelectAction = z.object({
  name: z.literal('select'),
  args: z.object({ id: ElementId, option: NonEmptyText }),
});
export type SelectAction = z.infer<typeof SelectAction>;
export const PressAction = z.object({
  name: z.literal('press'),
  args: z.object({ key: z.string().min(1).max(KEY_MAX_LENGTH) }),
});
export type PressAction = z.infer<typeof PressAction>;
export const ScrollAction = z.object({
  name: z.literal('scroll'),
  args: z.union([
    z.object({ direction: ScrollDirection }),
    z.object({
      id: ElementId.refine((id) => !isDirectionWord(id), {
        error: 'an element id cannot be a scroll direction word',
      }),
    }),
  ]),
});
export type ScrollAction = z.infer<typeof ScrollAction>;
export const NavigateAction = z.object({
  name: z.literal('navigate'),
  args: z.object({ url: HttpUrl }),
});
export type NavigateAction = z.infer<typeof NavigateAction>;
export const GoBackAction = z.object({ name: z.literal('goBack'), args: z.object({}) });
export type GoBackAction = z.infer<typeof GoBackAction>;
export const WaitAction = z.object({
  name: z.literal('wait'),
  args: z.object({ seconds: z.number().gt(0).max(WAIT_MAX_SECONDS) }),
});
export type WaitAction = z.infer<typeof WaitAction>;
export const FinishAction = z.object({
  name: z.literal('finish'),
  args: z.object({ message: Text.optional() }),
});
export type FinishAction = z.infer<typeof FinishAction>;
export const FailAction = z.object({
  name: z.literal('fail'),
  args: z.object({ reason: NonEmptyText }),
});
export type FailAction = z.infer<typeof FailAction>;
export const GoogleSearchAction = z.object({
  name: z.literal('googleSearch'),
  args: z.object({ query: z.string().min(1).max(1_000) }),
});
export type GoogleSearchAction = z.infer<typeof GoogleSearchAction>;

export const ParsedAction = z
  .discriminatedUnion('name', [
    ClickAction,
    ClickAtAction,
    SetValueAction,
    SelectAction,
    HoverAction,
    PressAction,
    ScrollAction,
    NavigateAction,
    GoBackAction,
    WaitAction,
    FinishAction,
    FailAction,
    GoogleSearchAction,
  ])
  .meta({ description: 'A parsed action of the action grammar.' });
export type ParsedAction = z.infer<typeof ParsedAction>;

// ------------------------------------------------------------------ grammar table

type ArgKind = 'id' | 'text' | 'key' | 'url' | 'number' | 'coordinate' | 'scrollTarget';

export interface ActionParam {
  /** Property name in `ParsedAction.args` (scroll's target becomes `direction` or `id`). */
  readonly key: string;
  readonly kind: ArgKind;
  /** Used in error messages: "setValue expects 2 arguments (element id, text)". */
  readonly label: string;
  readonly optional?: true;
  readonly nonEmpty?: true;
}

export interface ActionSpec {
  readonly name: ActionName;
  readonly params: readonly ActionParam[];
  readonly summary: string;
  readonly example: string;
}

const id: ActionParam = { key: 'id', kind: 'id', label: 'element id' };

/** One row per action; the parser, the error messages and docs/api.md all read it. */
export const ACTION_GRAMMAR: { readonly [N in ActionName]: ActionSpec } = {
  click: { name: 'click', params: [id], summary: 'Click an element.', example: 'click("14")' },
  clickAt: {
    name: 'clickAt',
    params: [
      { key: 'x', kind: 'coordinate', label: 'x' },
      { key: 'y', kind: 'coordinate', label: 'y' },
    ],
    summary:
      'Click the point (x, y) of the viewport, CSS pixels from its top-left corner: for what only the screenshot shows (hybrid mode only; never chained).',
    example: 'clickAt(412, 300)',
  },
  setValue: {
    name: 'setValue',
    params: [id, { key: 'text', kind: 'text', label: 'text' }],
    summary: 'Replace the value of an input, textarea or contenteditable ("" clears it).',
    example: 'setValue("14", "Jas")',
  },
  select: {
    name: 'select',
    params: [id, { key: 'option', kind: 'text', label: 'option', nonEmpty: true }],
    summary: 'Choose an option of a select / listbox by its visible text or value.',
    example: 'select("21", "Female")',
  },
  hover: {
    name: 'hover',
    params: [id],
    summary: 'Move the pointer over an element.',
    example: 'hover("9")',
  },
  press: {
    name: 'press',
    params: [{ key: 'key', kind: 'key', label: 'key', nonEmpty: true }],
    summary: 'Press a key (KeyboardEvent.key names, "+" for chords) in the focused element.',
    example: 'press("Enter")',
  },
  scroll: {
    name: 'scroll',
    params: [{ key: 'target', kind: 'scrollTarget', label: 'element id or direction' }],
    summary: `Scroll the page (${SCROLL_DIRECTIONS.join(', ')}) or an element into view / its container.`,
    example: 'scroll("down")',
  },
  navigate: {
    name: 'navigate',
    params: [{ key: 'url', kind: 'url', label: 'url' }],
    summary: 'Open an absolute http(s) URL in the tab.',
    example: 'navigate("https://example.com/patients")',
  },
  goBack: {
    name: 'goBack',
    params: [],
    summary: 'Go back in the tab history.',
    example: 'goBack()',
  },
  wait: {
    name: 'wait',
    params: [{ key: 'seconds', kind: 'number', label: 'seconds' }],
    summary: `Wait, 0 < seconds <= ${WAIT_MAX_SECONDS}.`,
    example: 'wait(1.5)',
  },
  finish: {
    name: 'finish',
    params: [{ key: 'message', kind: 'text', label: 'message', optional: true }],
    summary: 'The goal is achieved; the optional message is the final answer.',
    example: 'finish("The patient Jas was added.")',
  },
  fail: {
    name: 'fail',
    params: [{ key: 'reason', kind: 'text', label: 'reason', nonEmpty: true }],
    summary: 'Give up, with the reason shown to the user.',
    example: 'fail("The form rejects every date format.")',
  },
  googleSearch: {
    name: 'googleSearch',
    params: [{ key: 'query', kind: 'text', label: 'query', nonEmpty: true }],
    summary: 'Server-side web search; never executed by the extension.',
    example: 'googleSearch("ICD-10 code for migraine")',
  },
};

const placeholder = (param: ActionParam): string => {
  switch (param.kind) {
    case 'id':
      return 'id';
    case 'number':
    case 'coordinate':
      return param.label;
    case 'scrollTarget':
      return `id | ${SCROLL_DIRECTIONS.map((d) => `"${d}"`).join(' | ')}`;
    default:
      return `"${param.label}"`;
  }
};

/** `setValue(id, "text")`, `finish(["message"])`: the human-readable signature. */
export function actionSignature(name: ActionName): string {
  const params = ACTION_GRAMMAR[name].params.map((p) =>
    p.optional ? `[${placeholder(p)}]` : placeholder(p),
  );
  return `${name}(${params.join(', ')})`;
}

// ------------------------------------------------------------------ parser

export class ActionParseError extends Error {
  override readonly name = 'ActionParseError';
  constructor(
    message: string,
    /** 1-based column (UTF-16 code units) the problem starts at, when there is one. */
    readonly column: number | undefined,
    readonly input: string,
  ) {
    super(message);
  }
}

export type SafeParseActionResult =
  { ok: true; action: ParsedAction } | { ok: false; error: ActionParseError };

interface Token {
  quoted: boolean;
  value: string;
  /** The token as written, for error messages. */
  raw: string;
  column: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHITESPACE = /\s/;
const BARE_END = /[\s,()"']/;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
};

const NAMES_BY_LOWERCASE = new Map<string, ActionName>(
  ACTION_NAMES.map((n) => [n.toLowerCase(), n]),
);

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function suggestionFor(name: string): string {
  let best: { name: ActionName; distance: number } | undefined;
  for (const candidate of ACTION_NAMES) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best ? ` (did you mean ${best.name}?)` : '';
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function countMessage(spec: ActionSpec, got: number): string {
  const labels = spec.params.map((p) => p.label).join(', ');
  const required = spec.params.filter((p) => !p.optional).length;
  const max = spec.params.length;
  if (max === 0) return `${spec.name} expects no arguments, got ${got}`;
  if (required === max)
    return `${spec.name} expects ${plural(max, 'argument')} (${labels}), got ${got}`;
  if (required === 0)
    return `${spec.name} expects at most ${plural(max, 'argument')} (${labels}), got ${got}`;
  return `${spec.name} expects ${required} to ${max} arguments (${labels}), got ${got}`;
}

class Parser {
  private pos = 0;

  constructor(private readonly src: string) {}

  /** `index` is 0-based; null when the problem has no single position. */
  fail(message: string, index: number | null = this.pos): never {
    throw new ActionParseError(message, index === null ? undefined : index + 1, this.src);
  }

  private at(index = this.pos): string | undefined {
    return this.src[index];
  }

  private describeHere(): string {
    const ch = this.at();
    return ch === undefined ? 'end of input' : JSON.stringify(ch);
  }

  private skipWhitespace(): void {
    while (this.pos < this.src.length && WHITESPACE.test(this.src[this.pos] ?? '')) this.pos++;
  }

  parse(): ParsedAction {
    this.skipWhitespace();
    if (this.pos >= this.src.length) this.fail('empty action — expected e.g. click("14")', null);

    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.src);
    if (!match)
      this.fail(`expected an action name at column ${this.pos + 1}, got ${this.describeHere()}`);
    const written = match[0];
    const nameStart = this.pos;
    const name = NAMES_BY_LOWERCASE.get(written.toLowerCase());
    if (!name) {
      this.fail(
        `unknown action "${written}" — expected one of ${ACTION_NAMES.join(', ')}${suggestionFor(written)}`,
        nameStart,
      );
    }
    this.pos += written.length;

    this.skipWhitespace();
    if (this.at() !== '(') {
      this.fail(`expected "(" after ${name} at column ${this.pos + 1}, got ${this.describeHere()}`);
    }
    this.pos++;
    const { tokens, closeIndex } = this.parseArguments();

    this.skipWhitespace();
    if (this.pos < this.src.length) {
      const rest = this.src.slice(this.pos, this.pos + 20);
      this.fail(
        `unexpected ${JSON.stringify(rest)} after the closing ")" at column ${this.pos + 1}`,
      );
    }
    return this.build(ACTION_GRAMMAR[name], tokens, closeIndex);
  }

  private parseArguments(): { tokens: Token[]; closeIndex: number } {
    const tokens: Token[] = [];
    this.skipWhitespace();
    if (this.at() === ')') {
      this.pos++;
      return { tokens, closeIndex: this.pos - 1 };
    }
    for (;;) {
      this.skipWhitespace();
      const ch = this.at();
      if (ch === undefined) {
        this.fail(`expected an argument or ")" at column ${this.pos + 1}, got end of input`);
      }
      if (ch === ',' || ch === ')' || ch === '(') {
        this.fail(`expected an argument at column ${this.pos + 1}, got ${JSON.stringify(ch)}`);
      }
      tokens.push(ch === '"' || ch === "'" ? this.readString() : this.readBare());
      this.skipWhitespace();
      const next = this.at();
      if (next === ')') {
        this.pos++;
        return { tokens, closeIndex: this.pos - 1 };
      }
      if (next !== ',') {
        this.fail(`expected "," or ")" at column ${this.pos + 1}, got ${this.describeHere()}`);
      }
      this.pos++;
    }
  }

  private readBare(): Token {
    const start = this.pos;
    while (this.pos < this.src.length && !BARE_END.test(this.src[this.pos] ?? '')) this.pos++;
    const value = this.src.slice(start, this.pos);
    return { quoted: false, value, raw: value, column: start + 1 };
  }

  private readString(): Token {
    const start = this.pos;
    const quote = this.src[start];
    this.pos++;
    let value = '';
    let chunkStart = this.pos;
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos];
      if (ch === quote) {
        value += this.src.slice(chunkStart, this.pos);
        this.pos++;
        return { quoted: true, value, raw: this.src.slice(start, this.pos), column: start + 1 };
      }
      if (ch !== '\\') {
        this.pos++;
        continue;
      }
      value += this.src.slice(chunkStart, this.pos);
      const escape = this.src[this.pos + 1];
      if (escape === undefined) break;
      const simple = SIMPLE_ESCAPES[escape];
      if (simple !== undefined) {
        value += simple;
        this.pos += 2;
      } else if (escape === 'u') {
        const hex = this.src.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.fail(
            `invalid unicode escape at column ${this.pos + 1} — expected \\u followed by 4 hex digits`,
          );
        }
        value += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        this.fail(
          `invalid escape "\\${escape}" at column ${this.pos + 1} — allowed: \\" \\' \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX`,
        );
      }
      chunkStart = this.pos;
    }
    this.fail(`unterminated string starting at column ${start + 1}`, start);
  }

  private build(spec: ActionSpec, tokens: Token[], closeIndex: number): ParsedAction {
    const required = spec.params.filter((p) => !p.optional).length;
    if (tokens.length < required || tokens.length > spec.params.length) {
      const extra = tokens[spec.params.length];
      this.fail(countMessage(spec, tokens.length), extra ? extra.column - 1 : closeIndex);
    }
    const args: Record<string, string | number> = {};
    tokens.forEach((token, index) => {
      const param = spec.params[index];
      if (!param) return;
      const [key, value] = this.convert(spec, param, index + 1, token);
      args[key] = value;
    });
    const parsed = ParsedAction.safeParse({ name: spec.name, args });
    if (!parsed.success) {
      // The conversions above check everything the schema does; this guards against drift.
      this.fail(`${spec.name}: ${z.prettifyError(parsed.error)}`, null);
    }
    return parsed.data;
  }

  private convert(
    spec: ActionSpec,
    param: ActionParam,
    position: number,
    token: Token,
  ): [string, string | number] {
    const where = `${spec.name} argument ${position} (${param.label}) at column ${token.column}`;
    const failHere = (message: string): never => this.fail(message, token.column - 1);
    switch (param.kind) {
      case 'id':
        return [param.key, this.elementId(token, where)];
      case 'scrollTarget': {
        const value = token.quoted ? token.value.trim() : token.value;
        if (isDirectionWord(value)) return ['direction', value.toLowerCase()];
        return ['id', this.elementId(token, where)];
      }
      case 'number': {
        const text = token.value.trim();
        if (!NUMBER.test(text)) failHere(`${where} must be a number, got ${token.raw}`);
        const seconds = Number(text);
        if (!(seconds > 0 && seconds <= WAIT_MAX_SECONDS)) {
          failHere(
            `${spec.name} seconds must be > 0 and <= ${WAIT_MAX_SECONDS}, got ${text} at column ${token.column}`,
          );
        }
        return [param.key, seconds];
      }
      case 'coordinate': {
        const text = token.value.trim();
        if (!NUMBER.test(text)) failHere(`${where} must be a number, got ${token.raw}`);
        // `+ 0` turns -0 into 0, so the value formats and parses back to itself.
        const value = Number(text) + 0;
        if (!(value >= 0 && value <= COORDINATE_MAX)) {
          failHere(
            `${spec.name} ${param.label} must be >= 0 and <= ${formatCount(COORDINATE_MAX)} (CSS pixels), got ${text} at column ${token.column}`,
          );
        }
        return [param.key, value];
      }
      case 'url': {
        if (!token.quoted) failHere(`${where} must be a quoted string, got ${token.raw}`);
        if (token.value.length > URL_MAX_LENGTH)
          failHere(`${where} is longer than ${formatCount(URL_MAX_LENGTH)} characters`);
        if (!isHttpUrl(token.value)) {
          failHere(
            `${spec.name} expects an absolute http(s) URL at column ${token.column}, got ${token.raw}`,
          );
        }
        return [param.key, token.value];
      }
      case 'key': {
        if (token.value === '') failHere(`${where} must not be empty`);
        if (token.value.length > KEY_MAX_LENGTH)
          failHere(`${where} is longer than ${KEY_MAX_LENGTH} characters`);
        return [param.key, token.value];
      }
      case 'text': {
        if (!token.quoted) failHere(`${where} must be a quoted string, got ${token.raw}`);
        if (param.nonEmpty && token.value === '') failHere(`${where} must not be empty`);
        if (token.value.length > ACTION_TEXT_MAX_LENGTH) {
          failHere(`${where} is longer than ${formatCount(ACTION_TEXT_MAX_LENGTH)} characters`);
        }
        return [param.key, token.value];
      }
    }
  }

  private elementId(token: Token, where: string): string {
    // LLMs write click(14), click("14") and click('14'); all name element "14".
    const value = token.quoted ? token.value.trim() : token.value;
    const failHere = (message: string): never => this.fail(message, token.column - 1);
    if (value === '') failHere(`${where} is empty`);
    if (value.length > ELEMENT_ID_MAX_LENGTH) {
      failHere(`${where} is longer than ${ELEMENT_ID_MAX_LENGTH} characters`);
    }
    if (!ELEMENT_ID_PATTERN.test(value)) {
      failHere(
        `invalid element id ${JSON.stringify(value)} in ${where} — ids match ${String(ELEMENT_ID_PATTERN)}`,
      );
    }
    return value;
  }
}

/**
 * Parses one action string. Names are matched case-insensitively (`Click(3)` is `click`),
 * element ids may be bare or quoted, text must be quoted (" or ') with JSON-like escapes.
 * Throws `ActionParseError` saying what was expected and where.
 */
export function parseAction(text: string): ParsedAction {
  if (typeof text !== 'string')
    throw new ActionParseError('action must be a string', undefined, String(text));
  if (text.length > ACTION_MAX_LENGTH) {
    throw new ActionParseError(
      `action is too long (${formatCount(text.length)} characters, at most ${formatCount(ACTION_MAX_LENGTH)})`,
      undefined,
      text,
    );
  }
  return new Parser(text).parse();
}

export function safeParseAction(text: string): SafeParseActionResult {
  try {
    return { ok: true, action: parseAction(text) };
  } catch (error) {
    if (error instanceof ActionParseError) return { ok: false, error };
    throw error;
  }
}

const formatValue = (value: string | number): string =>
  typeof value === 'number' ? String(value) : JSON.stringify(value);

/**
 * The canonical string form: double quotes, JSON escapes, ", " between arguments, ids quoted
 * (`click("14")`). Throws on an object that is not a valid `ParsedAction`, so whatever this
 * returns is guaranteed to parse back.
 */
export function formatAction(action: ParsedAction): string {
  const checked = ParsedAction.safeParse(action);
  if (!checked.success) {
    throw new TypeError(`formatAction: not a valid action: ${z.prettifyError(checked.error)}`);
  }
  const valid = checked.data;
  let values: (string | number)[];
  if (valid.name === 'scroll') {
    values = ['direction' in valid.args ? valid.args.direction : valid.args.id];
  } else {
    const args: Record<string, unknown> = valid.args;
    values = ACTION_GRAMMAR[valid.name].params
      .map((p) => args[p.key])
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  }
  return `${valid.name}(${values.map(formatValue).join(', ')})`;
}

/** The element an action targets, if any (to check it exists and is not occluded). */
export function actionTargetId(action: ParsedAction): string | undefined {
  switch (action.name) {
    case 'click':
    case 'setValue':
    case 'select':
    case 'hover':
      return action.args.id;
    case 'scroll':
      return 'id' in action.args ? action.args.id : undefined;
    default:
      return undefined;
  }
}

/** finish/fail end the task: they are never chained and never executed on the page. */
export function isTerminalAction(action: Pick<ParsedAction, 'name'>): boolean {
  return (TERMINAL_ACTION_NAMES as readonly string[]).includes(action.name);
}
