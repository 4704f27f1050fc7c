// Atlas Vector Search over knowledge chunks. Unlike B-tree indexes these are *search indexes*:
// mongoose's syncIndexes() does not manage them, only Atlas (or a local Atlas deployment from
// the Atlas CLI) can build them, and they build asynchronously after creation.
//
// An index's vector field has one fixed `numDimensions`, while the dimension depends on the
// embedding model (768, 1536…). So, like the libSQL adapter's per-dimension tables, there is one
// index per dimension, named after it; a query vector uses the index of its own length, and
// chunks of another length are simply not in that index.
//
// How it is applied: `collection.createSearchIndex(knowledgeVectorSearchIndex(n))` (mongosh:
// `db.knowledgeChunks.createSearchIndex(name, 'vectorSearch', definition)`, or the Atlas UI /
// Admin API with the same definition). The store does it itself, only when the index does not
// exist yet: at start-up for the dimensions given in MongoStoreOptions.embeddingDimensions, and
// on the first write of a new dimension in a process. A server without Atlas Search answers
// "not supported"; that is expected (searchVector then ranks exactly in JS) and ignored.
import type { Model } from 'mongoose';
import type { KnowledgeChunkDoc } from './mongo-schema';

/** Fields every vector query filters on; Atlas only pre-filters on fields declared `filter`. */
const FILTER_PATHS = ['tenantId', 'domain', 'supersededBy'] as const;

export const knowledgeVectorIndexName = (numDimensions: number): string =>
  `knowledge_chunks_embedding_${numDimensions}`;

export interface KnowledgeVectorSearchIndex {
  name: string;
  type: 'vectorSearch';
  definition: {
    fields: Array<
      | { type: 'vector'; path: 'embedding'; numDimensions: number; similarity: 'cosine' }
      | { type: 'filter'; path: (typeof FILTER_PATHS)[number] }
    >;
  };
}

/** The Atlas Vector Search index definition for chunk embeddings of one dimension. */
export function knowledgeVectorSearchIndex(numDimensions: number): KnowledgeVectorSearchIndex {
  if (!Number.isInteger(numDimensions) || numDimensions < 1) {
    throw new Error(`numDimensions must be a positive integer (got ${numDimensions})`);
  }
  return {
    name: knowledgeVectorIndexName(numDimensions),
    type: 'vectorSearch',
    definition: {
      fields: [
        { type: 'vector', path: 'embedding', numDimensions, similarity: 'cosine' },
        ...FILTER_PATHS.map((path) => ({ type: 'filter' as const, path })),
      ],
    },
  };
}

const UNSUPPORTED_CODES = new Set([
  59, // CommandNotFound: no search index commands on this server
  115, // CommandNotSupported
  31082, // SearchNotEnabled: community server without mongot
  40324, // Unrecognized pipeline stage ($vectorSearch, $listSearchIndexes)
  6047401, // $vectorSearch is only allowed on Atlas
]);

const INDEX_ALREADY_EXISTS = 68;

/** Whether a server error says "no Atlas Search here" (as opposed to a real failure). */
export function isSearchUnsupported(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, codeName, message } = error as {
    code?: unknown;
    codeName?: unknown;
    message?: unknown;
  };
  if (typeof code === 'number' && UNSUPPORTED_CODES.has(code)) return true;
  if (
    codeName === 'CommandNotFound' ||
    codeName === 'CommandNotSupported' ||
    codeName === 'SearchNotEnabled'
  ) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /atlas|search index|not supported|unrecognized pipeline stage|requires additional configuration/i.test(
      message,
    )
  );
}

/** An error the server answered with (not a network failure or a client-side bug). */
export const isServerError = (error: unknown): boolean =>
  error instanceof Error && error.name === 'MongoServerError';

/**
 * Creates the vector index for one dimension unless it exists. Resolves true when the index
 * exists or was requested, false when the server has no Atlas Search; other errors reject.
 */
export async function ensureKnowledgeVectorIndex(
  chunks: Model<KnowledgeChunkDoc>,
  numDimensions: number,
): Promise<boolean> {
  const index = knowledgeVectorSearchIndex(numDimensions);
  try {
    const existing = await chunks.listSearchIndexes();
    if (existing.some((info) => info.name === index.name)) return true;
    await chunks.createSearchIndex(index);
    return true;
  } catch (error) {
    // Another process created it between the list and the create.
    if ((error as { code?: unknown }).code === INDEX_ALREADY_EXISTS) return true;
    if (isSearchUnsupported(error)) return false;
    throw error;
  }
}
