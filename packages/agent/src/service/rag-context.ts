// RAG once per request (docs/specs.md, "RAG once per request"): the tenant's knowledge for the
// page's domain and the goal, rendered for the prompts. The chunks never go to the client.
import type { ResumeInput } from '../nodes/dispatch/node';
import type { RagService } from '../rag/port';

export async function ragContextFor(
  rag: RagService,
  input: { tenantId: string; url: string; query: string },
): Promise<ResumeInput['ragContext']> {
  const { chunks, hasOrgKnowledge } = await rag.getRAGChunks(input);
  return {
    text: chunks
      .map((c) => `[${c.headingPath.join(' > ') || 'knowledge'}] ${c.content}`)
      .join('\n---\n'),
    chunkIds: chunks.map((c) => c.id),
    hasOrgKnowledge,
  };
}
