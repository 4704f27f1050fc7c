// Which option the model meant. Pure, so it is unit-tested without a browser.
import { normalizeForMatch } from '../dom/text';

export interface OptionLike {
  text: string;
  value?: string;
}

export type OptionMatch = { index: number } | { error: 'none' | 'ambiguous'; candidates: number[] };

/**
 * Exact visible text, then exact value, then a unique prefix, then a unique substring, all
 * case- and whitespace-insensitive. An ambiguous loose match is refused rather than guessed.
 */
export function matchOption(options: OptionLike[], wanted: string): OptionMatch {
  const target = normalizeForMatch(wanted);
  const texts = options.map((o) => normalizeForMatch(o.text));
  const exact = texts.indexOf(target);
  if (exact >= 0) return { index: exact };
  const byValue = options.findIndex(
    (o) => o.value !== undefined && normalizeForMatch(o.value) === target,
  );
  if (byValue >= 0) return { index: byValue };
  if (target === '') return { error: 'none', candidates: [] };
  for (const test of [(t: string) => t.startsWith(target), (t: string) => t.includes(target)]) {
    const hits = texts.flatMap((t, i) => (test(t) ? [i] : []));
    if (hits.length === 1 && hits[0] !== undefined) return { index: hits[0] };
    if (hits.length > 1) return { error: 'ambiguous', candidates: hits };
  }
  return { error: 'none', candidates: [] };
}

export function describeOptions(options: OptionLike[], max = 12): string {
  const shown = options.slice(0, max).map((o) => JSON.stringify(o.text));
  return shown.join(', ') + (options.length > max ? `, … (${options.length} in all)` : '');
}
