// Spec 003 Step 1.4: RAG is fetched once per request, before reasoning. Knowledge applies to a
// tenant-wide scope ('' domain) or to a site; a site's knowledge also applies to its subdomains
// (knowledge about example.com is about app.example.com too), never the other way round.
import type { KnowledgeChunk, KnowledgeRepository } from '@tandem/store';
import { bm25Scores } from './bm25';
import { DEFAULT_RAG_LIMIT, type RagService } from './port';

export function createRagService(store: { knowledge: KnowledgeRepository }): RagService {
  return {
    async getRAGChunks({ url, query, tenantId, limit = DEFAULT_RAG_LIMIT }) {
      // One indexed lookup for every allowed domain at once instead of reading the tenant's
      // whole knowledge base (embeddings included) on every request.
      const candidates = await store.knowledge.listChunks(tenantId, {
        domain: allowedDomains(url),
      });
      if (candidates.length === 0 || limit <= 0) {
        return { chunks: [], hasOrgKnowledge: candidates.length > 0 };
      }

      const scores = bm25Scores(
        query,
        candidates.map((chunk) => `${chunk.headingPath.join(' ')}\n${chunk.content}`),
      );
      const ranked = candidates
        .map((chunk, index) => ({ chunk, score: scores[index] ?? 0 }))
        .filter((entry) => entry.score > 0)
        .sort((a, b) => b.score - a.score || fresher(a.chunk, b.chunk));

      return {
        chunks: ranked.slice(0, limit).map(({ chunk, score }) => ({
          id: chunk.id,
          documentId: chunk.documentId,
          content: chunk.content,
          headingPath: chunk.headingPath,
          score,
          domain: chunk.domain,
        })),
        hasOrgKnowledge: true,
      };
    },
  };
}

/**
 * The knowledge domains that apply to a page: '' (tenant-wide), the host, and each parent
 * domain down to two labels. "www." is treated as the bare site in both directions, since sites
 * serve the same pages under both. An unparseable URL gets tenant-wide knowledge only.
 */
export function allowedDomains(url: string): string[] {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return [''];
  }
  if (host === '') return [''];
  const domains = new Set<string>(['', host]);
  const isIp = host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host);
  if (!isIp) {
    const labels = host.split('.');
    for (let i = 1; i <= labels.length - 2; i++) domains.add(labels.slice(i).join('.'));
    if (!host.startsWith('www.') && labels.length >= 2) domains.add(`www.${host}`);
  }
  return [...domains];
}

/** Tie-break: knowledge learned after an interaction beats the initial crawl, then newer first. */
function fresher(a: KnowledgeChunk, b: KnowledgeChunk): number {
  const phase = phaseRank(b) - phaseRank(a);
  if (phase !== 0) return phase;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.documentId.localeCompare(b.documentId) || a.ordinal - b.ordinal;
}

const phaseRank = (chunk: KnowledgeChunk): number => (chunk.phase === 'post-interaction' ? 1 : 0);
