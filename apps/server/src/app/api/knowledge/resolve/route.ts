import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// What RAG gives the agent for this page and query: the same retriever, the same answer.
export const GET = createRoute(endpoints.knowledgeResolve, {
  handler: async ({ query, runtime, auth }) => {
    const retrieval = await runtime.knowledge.retriever.retrieve({
      tenantId: auth.tenantId,
      url: query.url,
      query: query.query,
      limit: query.limit,
    });
    const titles = new Map<string, { title: string; sourceUrl: string | null }>();
    for (const id of new Set(retrieval.chunks.map((c) => c.chunk.documentId))) {
      const document = await runtime.store.knowledge.getDocument(auth.tenantId, id);
      if (document) titles.set(id, { title: document.title, sourceUrl: document.sourceUrl });
    }
    return {
      url: query.url,
      domains: retrieval.domains,
      hasOrgKnowledge: retrieval.hasOrgKnowledge,
      mode: retrieval.mode,
      chunks: retrieval.chunks.map(({ chunk, score, lexicalRank, vectorRank }) => ({
        id: chunk.id,
        documentId: chunk.documentId,
        documentTitle: titles.get(chunk.documentId)?.title ?? '',
        sourceUrl: titles.get(chunk.documentId)?.sourceUrl ?? null,
        domain: chunk.domain,
        headingPath: chunk.headingPath,
        content: chunk.content,
        score,
        lexicalRank,
        vectorRank,
        phase: chunk.phase,
        triggerAction: chunk.triggerAction,
        createdAt: chunk.createdAt,
      })),
    };
  },
});
