// Hybrid retrieval: BM25 over the chunks (the store's full-text index) and
// vector similarity (the store's vector index), fused by reciprocal rank. RRF needs no score
// calibration between the two retrievers: a chunk both rank high wins, and either retriever
// alone can still bring a chunk in (exact names and numbers lexically, paraphrases by vector).
import type { KnowledgeChunk, KnowledgeRepository, ScoredKnowledgeChunk } from '@tandem/store';
import type { Embedder } from '@tandem/llm';
import { readableDomains } from './domains';

/** The usual RRF constant: damps the top ranks so one retriever cannot dominate. */
export const RRF_K = 60;
/** Post-interaction knowledge (Hardening B) is what the page shows now: prefer it. */
export const FRESH_PHASE_BOOST = 1.2;
/** Knowledge older than this is down-ranked a little (pages change; re-index to refresh). */
export const STALE_AFTER_DAYS = 180;
export const STALE_FACTOR = 0.9;

export interface RetrievedChunk {
  chunk: KnowledgeChunk;
  score: number;
  /** 1-based rank in each retriever's list; null when it did not return the chunk. */
  lexicalRank: number | null;
  vectorRank: number | null;
}

export interface Retrieval {
  domains: string[];
  hasOrgKnowledge: boolean;
  mode: 'hybrid' | 'lexical';
  chunks: RetrievedChunk[];
}

export interface RetrieveInput {
  tenantId: string;
  url: string;
  query: string;
  limit: number;
  now?: Date;
}

export interface KnowledgeRetrieverDeps {
  knowledge: KnowledgeRepository;
  /** Null: lexical retrieval only. */
  embedder: Embedder | null;
  /** An embeddings failure falls back to lexical retrieval; this hears about it. */
  onEmbeddingError?: (error: unknown) => void;
}

export interface KnowledgeRetriever {
  retrieve(input: RetrieveInput): Promise<Retrieval>;
}

export function createKnowledgeRetriever(deps: KnowledgeRetrieverDeps): KnowledgeRetriever {
  const { knowledge, embedder } = deps;

  async function vectorSearch(tenantId: string, domains: string[], query: string, k: number) {
    if (embedder === null) return null;
    try {
      const [embedding] = await embedder.embed([query], 'query', { tenantId });
      if (!embedding) return null;
      return await knowledge.searchVector(tenantId, { domains, embedding, limit: k });
    } catch (error) {
      deps.onEmbeddingError?.(error);
      return null;
    }
  }

  return {
    async retrieve({ tenantId, url, query, limit, now = new Date() }) {
      const settings = await knowledge.getSettings(tenantId);
      const domains = readableDomains(url, settings.allowedDomains);
      const hasOrgKnowledge = await knowledge.hasChunks(tenantId, domains);
      if (!hasOrgKnowledge || limit <= 0 || query.trim() === '') {
        return { domains, hasOrgKnowledge, mode: embedder ? 'hybrid' : 'lexical', chunks: [] };
      }
      // Each retriever looks deeper than the answer, so fusion has overlap to work with.
      const k = Math.max(limit * 4, 20);
      const [lexical, vector] = await Promise.all([
        knowledge.searchLexical(tenantId, { domains, query: lexicalQuery(query), limit: k }),
        vectorSearch(tenantId, domains, query, k),
      ]);
      const mode = vector !== null && vector.length > 0 ? 'hybrid' : 'lexical';
      const chunks = fuse(lexical, vector ?? [], now).slice(0, limit);
      return { domains, hasOrgKnowledge, mode, chunks };
    },
  };
}

/**
 * Words that match almost every chunk: left out of the lexical query so that "the" alone
 * does not bring a chunk into the top results (BM25 ranks such a chunk low, but a small
 * knowledge base has few better ones to push it out of the answer).
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it ' +
    'its me my of on or our so than that the their them then there these they this to was we were ' +
    'what when where which who why will with would you your'
  ).split(' '),
);

export function lexicalQuery(query: string): string {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = words.filter((w) => !STOPWORDS.has(w));
  return (kept.length > 0 ? kept : words).join(' ');
}

/** Reciprocal-rank fusion with the freshness bias; best first, ties broken by freshness. */
export function fuse(
  lexical: ScoredKnowledgeChunk[],
  vector: ScoredKnowledgeChunk[],
  now: Date = new Date(),
): RetrievedChunk[] {
  const byId = new Map<string, RetrievedChunk>();
  const add = (list: ScoredKnowledgeChunk[], which: 'lexicalRank' | 'vectorRank') => {
    list.forEach(({ chunk }, index) => {
      const entry = byId.get(chunk.id) ?? { chunk, score: 0, lexicalRank: null, vectorRank: null };
      entry[which] = index + 1;
      entry.score += 1 / (RRF_K + index + 1);
      byId.set(chunk.id, entry);
    });
  };
  add(lexical, 'lexicalRank');
  add(vector, 'vectorRank');
  const entries = [...byId.values()];
  for (const entry of entries) entry.score *= freshness(entry.chunk, now);
  return entries.sort((a, b) => b.score - a.score || fresher(a.chunk, b.chunk));
}

function freshness(chunk: KnowledgeChunk, now: Date): number {
  const phase = chunk.phase === 'post-interaction' ? FRESH_PHASE_BOOST : 1;
  const ageDays = (now.getTime() - Date.parse(chunk.createdAt)) / 86_400_000;
  return phase * (ageDays > STALE_AFTER_DAYS ? STALE_FACTOR : 1);
}

/** Tie-break: knowledge learned after an interaction beats the initial crawl, then newer first. */
function fresher(a: KnowledgeChunk, b: KnowledgeChunk): number {
  const phase = phaseRank(b) - phaseRank(a);
  if (phase !== 0) return phase;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.documentId.localeCompare(b.documentId) || a.ordinal - b.ordinal;
}

const phaseRank = (chunk: KnowledgeChunk): number => (chunk.phase === 'post-interaction' ? 1 : 0);
