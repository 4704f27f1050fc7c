// The pages-dev README's metric (ScrapingHub article-extraction-benchmark): word 4-gram
// shingle multisets, per-page TP/FP/FN scaled to sum to 1, precision and recall averaged
// over pages, F1 from the averages.
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * Markdown reduced to its text: links to their label, images to their alt text, backslash
 * escapes to the character, syntax characters gone. `_` stays: the extractor writes emphasis
 * with `*` (turndown's emDelimiter), so an underscore is always text (`create_user`), and the
 * metric's words (`\w+`) include it.
 */
export function markdownText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[#*`>|~-]+/g, ' ');
}

function shingles(text: string): Map<string, number> {
  const words = (text.toLowerCase().match(WORD) ?? []) as string[];
  const counts = new Map<string, number>();
  for (let i = 0; i + 4 <= words.length; i++) {
    const key = words.slice(i, i + 4).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageScore {
  precision: number;
  recall: number;
}

export function scorePage(predicted: string, truth: string): PageScore {
  const pred = shingles(predicted);
  const gold = shingles(truth);
  let tp = 0;
  let predTotal = 0;
  let goldTotal = 0;
  for (const [key, n] of pred) {
    predTotal += n;
    tp += Math.min(n, gold.get(key) ?? 0);
  }
  for (const n of gold.values()) goldTotal += n;
  const fp = predTotal - tp;
  const fn = goldTotal - tp;
  const sum = tp + fp + fn;
  if (sum === 0) return { precision: 1, recall: 1 };
  // Scaled to sum to 1 per page; with nothing predicted precision is 0 (nothing right).
  const [t, p, n] = [tp / sum, fp / sum, fn / sum];
  return {
    precision: t + p === 0 ? 0 : t / (t + p),
    recall: t + n === 0 ? 1 : t / (t + n),
  };
}

export interface Aggregate {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
}

export function aggregate(scores: PageScore[]): Aggregate {
  const pages = scores.length;
  const precision = scores.reduce((s, x) => s + x.precision, 0) / Math.max(1, pages);
  const recall = scores.reduce((s, x) => s + x.recall, 0) / Math.max(1, pages);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { pages, precision, recall, f1 };
}
