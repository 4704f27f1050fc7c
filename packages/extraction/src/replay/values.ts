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
 */
const NUMBER_TOKEN = /(?:(?<![\p{L}\p{N}])[-\u2212])?(?<![\d.,])\d[\d.,]*/u;

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

/** "$1,249.00" → 1249, "4.5 out of 5" → 4.5, "12 items" → 12, "1.249,00 €" → 1249. */
export function parseNumber(text: string): number | null {
  const match = NUMBER_TOKEN.exec(text);
  if (!match) return null;
  let token = match[0].replace(/[.,]+$/, '');
  const negative = token.startsWith('-') || token.startsWith('\u2212');
  if (negative) token = token.slice(1);
  const plain = unseparate(token);
  if (plain === null) return null;
  const value = Number(plain);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

const TRUE_WORDS = new Set(['true', 'yes']);
const FALSE_WORDS = new Set(['false', 'no']);

export function parseBoolean(text: string): boolean | null {
  const word = normalizeText(text).toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** Page text (or an attribute value) as a value of the schema type; null when it is not one. */
export function convert(raw: string, type: ScalarType): string | number | boolean | null {
  if (type === 'string') {
    const text = normalizeText(raw);
    return text === '' ? null : text;
  }
  if (type === 'boolean') return parseBoolean(raw);
  const value = parseNumber(raw);
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
