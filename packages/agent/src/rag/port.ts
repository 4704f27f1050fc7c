// The RAG port: what the interact service asks for once per request (docs/specs.md, "RAG once per
// request").

export const DEFAULT_RAG_LIMIT = 5;

export interface RagChunk {
  id: string;
  documentId: string;
  content: string;
  headingPath: string[];
  /** Fused rank score (> 0, reciprocal-rank fusion of BM25 and vectors); only comparable within one result. */
  score: number;
  /** '' for tenant-wide knowledge. */
  domain: string;
}

export interface RagResult {
  /** Best first, at most `limit`: chunks sharing a term with the query, or near it by embedding. */
  chunks: RagChunk[];
  /** The tenant has knowledge for this page (any chunk for an allowed domain), matched or not. */
  hasOrgKnowledge: boolean;
}

export interface GetRagChunksInput {
  url: string;
  query: string;
  tenantId: string;
  /** Default 5. */
  limit?: number;
}

export interface RagService {
  getRAGChunks(input: GetRagChunksInput): Promise<RagResult>;
}
