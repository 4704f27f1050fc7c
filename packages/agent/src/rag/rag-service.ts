// RAG once per request (docs/specs.md, "RAG once per request"): RAG is fetched once per request,
// before reasoning. The retrieval itself (BM25 + vectors fused by reciprocal rank, the tenant's
// allowed_domains, the freshness bias) is the knowledge package's; this adapts it to the agent's
// RAG port.
import { createKnowledgeRetriever, pageDomains, type KnowledgeRetriever } from '@tandem/knowledge';
import { type Embedder } from '@tandem/llm';
import type { KnowledgeRepository } from '@tandem/store';
import { DEFAULT_RAG_LIMIT, type RagService } from './port';

export interface RagServiceOptions {
  /** The server's retriever (shared with GET /api/knowledge/resolve); built here when absent. */
  retriever?: KnowledgeRetriever;
  /** Null or absent: lexical retrieval only. Ignored with `retriever`. */
  embedder?: Embedder | null;
  onEmbeddingError?: (error: unknown) => void;
}

export function createRagService(
  store: { knowledge: KnowledgeRepository },
  options: RagServiceOptions = {},
): RagService {
  const retriever: KnowledgeRetriever =
    options.retriever ??
    createKnowledgeRetriever({
      knowledge: store.knowledge,
      embedder: options.embedder ?? null,
      ...(options.onEmbeddingError ? { onEmbeddingError: options.onEmbeddingError } : {}),
    });
  return {
    async getRAGChunks({ url, query, tenantId, limit = DEFAULT_RAG_LIMIT }) {
      const retrieval = await retriever.retrieve({ tenantId, url, query, limit });
      return {
        chunks: retrieval.chunks.map(({ chunk, score }) => ({
          id: chunk.id,
          documentId: chunk.documentId,
          content: chunk.content,
          headingPath: chunk.headingPath,
          score,
          domain: chunk.domain,
        })),
        hasOrgKnowledge: retrieval.hasOrgKnowledge,
      };
    },
  };
}

/** The knowledge domains that apply to a page (before the tenant's allowed domains). */
export const allowedDomains = pageDomains;
