// Lexical ranking for RAG: Okapi BM25 over the candidate chunks. Small knowledge bases (a few
// hundred chunks per domain) make an in-memory index per request cheap, and lexical matching is
// what UI-procedure questions need ("add patient" -> the "Adding a patient" section).

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

const STOPWORDS = new Set(
  (
    'a an the of to in on for and or with by at from as is are was were be been being do does did ' +
    'it its this that these those there here i me my we our you your he she they them their ' +
    'what which who how when where why can could should would will shall may might must not no ' +
    'so if then than into over about up out please'
  ).split(' '),
);

/**
 * Lowercase words (letters/digits, any script), stopwords dropped, lightly stemmed so plurals
 * and -ing/-ed forms meet ("patients", "adding", "added" -> "patient", "add").
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === '' || STOPWORDS.has(raw)) continue;
    if (raw.length < 2 && !/\d/.test(raw)) continue;
    tokens.push(stem(raw));
  }
  return tokens;
}

/** A deliberately tiny suffix stripper: predictable, and good enough for English UI text. */
export function stem(word: string): string {
  if (/\d/.test(word) || word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

// "adding" -> "add", but "running" -> "run" and "stopped" -> "stop".
function undouble(word: string): string {
  const last = word[word.length - 1];
  return word.length > 2 &&
    last === word[word.length - 2] &&
    last !== 'l' &&
    last !== 's' &&
    last !== 'd'
    ? word.slice(0, -1)
    : word;
}

/** BM25 score of each document for the query (same order as `documents`). */
export function bm25Scores(
  query: string,
  documents: readonly string[],
  params: { k1?: number; b?: number } = {},
): number[] {
  const k1 = params.k1 ?? BM25_K1;
  const b = params.b ?? BM25_B;
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0 || documents.length === 0) return documents.map(() => 0);

  const docs = documents.map((text) => {
    const frequencies = new Map<string, number>();
    const tokens = tokenize(text);
    for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
    return { length: tokens.length, frequencies };
  });
  const total = docs.length;
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / total || 1;
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = docs.filter((doc) => doc.frequencies.has(term)).length;
    // The "+1" form (Lucene's) keeps idf positive even for a term in every chunk.
    idf.set(term, Math.log(1 + (total - df + 0.5) / (df + 0.5)));
  }

  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.frequencies.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = tf + k1 * (1 - b + (b * doc.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((tf * (k1 + 1)) / norm);
    }
    return score;
  });
}
