// Search helpers both adapters share, so a query means the same thing to FTS5 and to Mongo's
// $text, and a vector is accepted (or refused) the same way by both.

/** More words than this add cost to every search and nothing to its ranking. */
const MAX_QUERY_TERMS = 32;

/**
 * The word tokens of a user's query: runs of letters and digits, deduplicated, in order. This
 * is also what FTS5's unicode61 tokenizer and Mongo's text index split on, so every character
 * either engine would read as syntax (quotes, `*`, `-`, `:`, parentheses, `^`) is dropped here
 * and never reaches it. Words like NEAR/AND/OR survive as plain words: each adapter quotes or
 * otherwise neutralises them.
 */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const term = match[0];
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(term);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

/**
 * FTS5 MATCH syntax for a query: every term quoted (a quoted string is never an operator,
 * column filter or prefix query), OR-ed so a chunk with any of the words is a candidate and
 * bm25 ranks the ones with more (and rarer) words first. Null when the query has no words.
 */
export function ftsMatchExpression(query: string): string | null {
  const terms = queryTerms(query);
  // Terms hold only letters and digits, so there is no `"` to double inside the quotes.
  return terms.length === 0 ? null : terms.map((term) => `"${term}"`).join(' OR ');
}

/** Vectors are stored as float32 and compared by cosine: every value must be a finite number. */
export function assertFiniteVector(vector: readonly number[], what: string): void {
  if (!vector.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    throw new Error(`${what} must contain only finite numbers`);
  }
}

/** Largest dimension a libSQL vector column accepts. */
export const MAX_VECTOR_DIMENSIONS = 65_536;

/** Cosine is undefined for a zero vector: neither engine can rank against one. */
export const isZeroVector = (vector: readonly number[]): boolean =>
  vector.every((value) => value === 0);

/** Cosine similarity (1 − cosine distance); null when either vector is zero or lengths differ. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length || a.length === 0) return null;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return null;
  return dot / Math.sqrt(normA * normB);
}

/** Search limits as the port takes them: below 1 asks for nothing, above 1000 is capped. */
export const searchLimit = (limit: number): number =>
  Number.isFinite(limit) ? Math.min(1000, Math.floor(limit)) : 0;
