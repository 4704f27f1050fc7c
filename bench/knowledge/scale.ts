// Retrieval latency at 100k chunks on libSQL (target p95 ≤ 50 ms): lexical (FTS5 bm25),
// vector (native vector index) and hybrid (both + fusion) over one tenant's knowledge, with
// other tenants' chunks in the same tables as production has. Query embeddings are computed
// before timing: that is the model's latency, not the store's.
import { createKnowledgeRetriever } from '@tandem/knowledge';
import { fakeEmbedding } from '@tandem/llm/testing';
import type { Store } from '@tandem/store';
import { fmt, summary } from './stats';

/**
 * Synthetic text with a Zipf word distribution (like natural language: a few words in most
 * chunks, most words in few), so full-text queries match realistic shares of the corpus.
 */
const VOCABULARY = 30_000;
const ZIPF = (() => {
  const weights = Array.from({ length: VOCABULARY }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

function random(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x7fffffff;
  };
}

function zipfRank(r: number): number {
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ZIPF[mid] ?? 1) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A word for each rank, spelt in consonants other than s and y: the porter stemmer leaves such
 * words alone (no vowel, no plural s), so no two synthetic words stem to one term, as "w4s"
 * and "w4" would in base 36.
 */
const LETTERS = 'bcdfghjklmnpqrtvwxz';
function spell(rank: number): string {
  let word = '';
  let n = rank;
  do {
    word = (LETTERS[n % LETTERS.length] ?? 'b') + word;
    n = Math.floor(n / LETTERS.length);
  } while (n > 0);
  return `w${word}`;
}

function sentence(seed: number, words = 60): string {
  const next = random(seed);
  return Array.from({ length: words }, () => spell(zipfRank(next()))).join(' ');
}

/**
 * The synthetic language's 100 most frequent words play the part of English stopwords ("the",
 * "of", "and" are about 45% of English text), which the retriever leaves out of a question
 * (lexicalQuery): a question is made of the other words.
 */
const STOPWORD_RANKS = 100;

function question(seed: number, words = 5): string {
  const next = random(seed);
  const picked: string[] = [];
  while (picked.length < words) {
    const rank = zipfRank(next());
    if (rank >= STOPWORD_RANKS) picked.push(spell(rank));
  }
  return picked.join(' ');
}

export interface ScaleOptions {
  chunks: number;
  dimensions: number;
  queries: number;
}

export async function benchScale(store: Store, options: ScaleOptions): Promise<string[]> {
  const tenantId = (await store.tenants.create({ name: 'bench-scale' })).id;
  const other = (await store.tenants.create({ name: 'bench-other' })).id;
  const t0 = performance.now();
  const perDoc = 100;
  for (let d = 0; d * perDoc < options.chunks; d++) {
    const owner = d % 10 === 0 ? other : tenantId;
    const doc = await store.knowledge.createDocument(owner, {
      domain: d % 4 === 0 ? '' : `site${d % 7}.example.com`,
      title: `doc ${d}`,
      mimeType: 'text/markdown',
      status: 'ready',
    });
    await store.knowledge.addChunks(
      owner,
      doc.id,
      Array.from({ length: perDoc }, (_, i) => {
        const text = sentence(d * perDoc + i);
        return {
          ordinal: i,
          content: text,
          headingPath: [`Section ${i % 9}`],
          embedding: fakeEmbedding(text, options.dimensions),
        };
      }),
    );
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  const url = 'https://site3.example.com/page';
  const lexicalOnly = createKnowledgeRetriever({ knowledge: store.knowledge, embedder: null });
  const queries = Array.from({ length: options.queries }, (_, i) => question(900_000 + i));
  const vectors = queries.map((q) => fakeEmbedding(q, options.dimensions));
  const domains = ['', 'site3.example.com', 'example.com'];
  const time = async (run: (i: number) => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < queries.length; i++) {
      const start = performance.now();
      await run(i);
      ms.push(performance.now() - start);
    }
    return summary(ms);
  };
  const lexical = await time((i) =>
    lexicalOnly.retrieve({ tenantId, url, query: queries[i] ?? '', limit: 5 }),
  );
  const vector = await time((i) =>
    store.knowledge.searchVector(tenantId, { domains, embedding: vectors[i] ?? [], limit: 20 }),
  );
  const lexicalStore = await time((i) =>
    store.knowledge.searchLexical(tenantId, { domains, query: queries[i] ?? '', limit: 20 }),
  );
  const hybrid = await time((i) =>
    createKnowledgeRetriever({
      knowledge: store.knowledge,
      embedder: { id: 'precomputed', model: 'precomputed', embed: async () => [vectors[i] ?? []] },
    }).retrieve({ tenantId, url, query: queries[i] ?? '', limit: 5 }),
  );
  return [
    `retrieval at ${options.chunks.toLocaleString('en')} chunks (${options.dimensions}-dim vectors, 10% another tenant's; loaded in ${fmt(loadSeconds)} s):`,
    `  lexical (settings + hasChunks + FTS5):  median ${fmt(lexical.median)} ms, p95 ${fmt(lexical.p95)} ms`,
    `  lexical search (store only):             median ${fmt(lexicalStore.median)} ms, p95 ${fmt(lexicalStore.p95)} ms`,
    `  vector search (store only):              median ${fmt(vector.median)} ms, p95 ${fmt(vector.p95)} ms`,
    `  hybrid (both + fusion, query embedded):  median ${fmt(hybrid.median)} ms, p95 ${fmt(hybrid.p95)} ms   (target p95 ≤ 50 ms)`,
  ];
}
