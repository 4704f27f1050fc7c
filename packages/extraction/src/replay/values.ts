// Reading scalar values out of page text, and comparing them with what the model extracted.
// Learning and replay must convert text the same way, or a recipe would disagree with itself.

export type ScalarType = 'string' | 'number' | 'integer' | 'boolean';

/** Collapses runs of whitespace (nbsp included) and trims: how text is compared everywhere. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The first number of a text. The sign counts only when it does not follow a letter or digit
 * ("P-1" is 1, not -1); a digit must not follow a separator, so "USD1,249" reads 1,249 whole.
 * A space (no-break and narrow no-break ones included, as French and Swiss prices group by them)
 * joins digits only before a group of exactly three: "1 234,50 €" is one number, "4 of 5" two.
 */
const NUMBER_TOKEN =
  /(?:(?<![\p{L}\p{N}])[-\u2212])?(?<![\d.,])\d(?:[\d.,']|[ \u00a0\u2009\u202f](?=\d{3}(?!\d)))*/u;

/** The decimal separator of a number format; the other mark and spaces group thousands. */
export type DecimalMark = '.' | ',';

/**
 * The token read under a known decimal mark, or null when it is not written that way: the mark
 * at most once and after every group separator, groups of three digits after the first (or the
 * Indian 2-2-3 grouping), and no other punctuation.
 */
function readAs(token: string, decimal: DecimalMark): number | null {
  const at = token.indexOf(decimal);
  if (at >= 0 && token.indexOf(decimal, at + 1) >= 0) return null;
  const whole = at >= 0 ? token.slice(0, at) : token;
  const fraction = at >= 0 ? token.slice(at + 1) : '';
  if (at >= 0 && !/^\d+$/.test(fraction)) return null;
  const groups = whole.split(/[.,' \u00a0\u2009\u202f]/);
  const [first, ...rest] = groups;
  if (!first || !/^\d+$/.test(first)) return null;
  if (rest.length > 0) {
    if (first.length > 3) return null;
    const last = rest.at(-1) as string;
    const middle = rest.slice(0, -1);
    const thousands = rest.every((g) => /^\d{3}$/.test(g));
    const indian =
      /^\d{3}$/.test(last) && middle.length > 0 && middle.every((g) => /^\d{2}$/.test(g));
    if (!thousands && !indian) return null;
  }
  const value = Number(`${groups.join('')}${fraction ? `.${fraction}` : ''}`);
  return Number.isFinite(value) ? value : null;
}

/** "1,249" and "1.249.000" are grouped thousands; "12,99" is a decimal comma. */
function unseparate(token: string): string | null {
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const [group, decimal] = lastDot > lastComma ? ([',', '.'] as const) : (['.', ','] as const);
    const joined = token.split(group).join('');
    return joined.split(decimal).length === 2 ? joined.replace(decimal, '.') : null;
  }
  for (const sep of [',', '.']) {
    if (!token.includes(sep)) continue;
    const parts = token.split(sep);
    const grouped = parts.length > 1 && parts.slice(1).every((part) => part.length === 3);
    // A single "1.249" stays a decimal (prices with dots are far more common than thousands).
    if (grouped && (sep === ',' || parts.length > 2)) return parts.join('');
    return parts.length === 2 ? parts.join('.') : `${parts[0]}.${parts[1]}`;
  }
  return token;
}

/** The first number token of a text, its sign split off; null without one. */
function numberToken(text: string): { token: string; negative: boolean } | null {
  const match = NUMBER_TOKEN.exec(text);
  if (!match) return null;
  let token = match[0].replace(/[.,']+$/, '');
  const negative = token.startsWith('-') || token.startsWith('\u2212');
  if (negative) token = token.slice(1);
  return { token, negative };
}

/**
 * "$1,249.00" → 1249, "4.5 out of 5" → 4.5, "12 items" → 12, "1.249,00 €" → 1249. With a
 * decimal mark (the format learned from the model's values), a number not written in that
 * format is null rather than a guess: under ',' "1.908 €" is 1908 and "$12.50" is null.
 */
export function parseNumber(text: string, decimal?: DecimalMark): number | null {
  const found = numberToken(text);
  if (!found) return null;
  const { token, negative } = found;
  let value: number | null;
  if (decimal) value = readAs(token, decimal);
  else {
    const spaced = /[ \u00a0\u2009\u202f']/.test(token);
    const plain = spaced ? null : unseparate(token);
    value = plain === null ? (readAs(token, '.') ?? readAs(token, ',')) : Number(plain);
    if (value !== null && !Number.isFinite(value)) value = null;
  }
  if (value === null) return null;
  return negative ? -value : value;
}

/**
 * Whether a text is one number and nothing else but a currency or unit mark: "$219.99",
 * "1 234,50 €", not "219 · 4.5 out of 5" nor ".99" alone next to another number.
 */
export function isLoneNumber(text: string): boolean {
  const found = numberToken(text);
  if (!found) return false;
  const rest = text.replace(NUMBER_TOKEN, '');
  return !/\d/.test(rest) && rest.replace(/[\s.,]/g, '').length <= 4;
}

/**
 * Whether the text of an element holding part of a number sits in a parent that writes more
 * digits of it ("$<span>219</span><sup>.99</sup>"): reading the part alone would be wrong.
 */
export function isPartOfNumber(text: string, parentText: string): boolean {
  const rest = normalizeText(parentText).replace(normalizeText(text), '');
  return !/\p{L}/u.test(parentText) && /\d/.test(rest) && normalizeText(parentText).length <= 40;
}

/** Every value the first number of a text can mean, under either decimal mark or the guess. */
export function numberReadings(text: string): number[] {
  const readings = [parseNumber(text), parseNumber(text, '.'), parseNumber(text, ',')];
  return [...new Set(readings.filter((n): n is number => n !== null))];
}

/**
 * The decimal mark a set of texts is written with, judged by the values the model read from
 * them: the one mark under which every text reads its value while the other mark misreads
 * some. Undefined when both read them all (no text told them apart) or neither does.
 */
export function learnDecimalMark(
  examples: readonly { text: string; value: number }[],
): DecimalMark | undefined {
  const fits = (mark: DecimalMark) =>
    examples.every(({ text, value }) => {
      const read = parseNumber(text, mark);
      return read !== null && Math.abs(read - value) <= 1e-9 * Math.max(1, Math.abs(value));
    });
  const dot = fits('.');
  const comma = fits(',');
  if (dot === comma) return undefined;
  return dot ? '.' : ',';
}

/** Languages that write a decimal comma (the page's lang decides a number no example did). */
const COMMA_LANGUAGES = new Set(
  'de fr es it pt nl ru pl sv da nb nn no fi tr cs sk sl hu ro bg uk el hr sr lt lv et is id vi'.split(
    ' ',
  ),
);

/** The decimal mark a page's language writes, or undefined when its lang is not known. */
export function decimalMarkOfLang(lang: string | null | undefined): DecimalMark | undefined {
  const primary = (lang ?? '').trim().toLowerCase().split(/[-_]/)[0];
  if (!primary) return undefined;
  return COMMA_LANGUAGES.has(primary) ? ',' : '.';
}

/**
 * A number under a rule without a learned mark: read when both marks agree (or only one
 * fits); when they disagree ("1.908", "1,234") the page's language decides, and without one
 * the number is ambiguous and null, so the replay declines rather than guesses.
 */
export function parseNumberStrict(
  text: string,
  lang?: () => string | null | undefined,
): number | null {
  const dot = parseNumber(text, '.');
  const comma = parseNumber(text, ',');
  if (dot === null || comma === null || dot === comma) return dot ?? comma;
  const mark = decimalMarkOfLang(lang?.());
  if (mark === undefined) return null;
  return mark === '.' ? dot : comma;
}

const TRUE_WORDS = new Set(['true', 'yes']);
const FALSE_WORDS = new Set(['false', 'no']);

export function parseBoolean(text: string): boolean | null {
  const word = normalizeText(text).toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/**
 * How a rule reads numbers: the decimal mark learned for it, else `strict` (both marks must
 * agree, or the page's `lang` decides), else the guess (locating values while learning).
 */
export interface NumberFormat {
  decimal?: DecimalMark;
  strict?: boolean;
  /** The page's language, asked only when a number is ambiguous. */
  lang?: () => string | null | undefined;
}

/** Page text (or an attribute value) as a value of the schema type; null when it is not one. */
export function convert(
  raw: string,
  type: ScalarType,
  format: NumberFormat = {},
): string | number | boolean | null {
  if (type === 'string') {
    const text = normalizeText(raw);
    return text === '' ? null : text;
  }
  if (type === 'boolean') return parseBoolean(raw);
  const value = format.decimal
    ? parseNumber(raw, format.decimal)
    : format.strict
      ? parseNumberStrict(raw, format.lang)
      : parseNumber(raw);
  if (value === null) return null;
  return type === 'integer' && !Number.isInteger(value) ? null : value;
}

/** null, undefined and blank strings all mean "no value" to the model and to the replay. */
export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !value.trim());
}

function closeNumbers(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Whether a replayed value says the same as the model's (whitespace and float noise aside). */
export function sameValue(model: unknown, replayed: unknown): boolean {
  if (isEmptyValue(model) || isEmptyValue(replayed)) {
    return isEmptyValue(model) && isEmptyValue(replayed);
  }
  if (typeof model === 'string' && typeof replayed === 'string') {
    return normalizeText(model) === normalizeText(replayed);
  }
  if (typeof model === 'number' && typeof replayed === 'number') {
    return closeNumbers(model, replayed);
  }
  return model === replayed;
}

/** Whether a value has the schema type (the zod-free half of validation, for the spot check). */
export function hasType(value: unknown, type: ScalarType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
  }
}
