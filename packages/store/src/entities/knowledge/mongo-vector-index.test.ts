// The Atlas Vector Search index definition and the "no Atlas here" classification, checked
// without a server (the contract suite covers the behaviour wherever MONGODB_URI points).
import { describe, expect, it } from 'vitest';
import {
  isSearchUnsupported,
  knowledgeVectorIndexName,
  knowledgeVectorSearchIndex,
} from './mongo-vector-index';

const serverError = (fields: Record<string, unknown>): Error =>
  Object.assign(new Error(String(fields.message ?? 'server error')), {
    name: 'MongoServerError',
    ...fields,
  });

describe('knowledge vector search index', () => {
  it('defines one cosine index per dimension with the query filters as filter fields', () => {
    expect(knowledgeVectorSearchIndex(768)).toEqual({
      name: 'knowledge_chunks_embedding_768',
      type: 'vectorSearch',
      definition: {
        fields: [
          { type: 'vector', path: 'embedding', numDimensions: 768, similarity: 'cosine' },
          { type: 'filter', path: 'tenantId' },
          { type: 'filter', path: 'domain' },
          { type: 'filter', path: 'supersededBy' },
        ],
      },
    });
    expect(knowledgeVectorIndexName(1536)).toBe('knowledge_chunks_embedding_1536');
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => knowledgeVectorSearchIndex(bad)).toThrow();
    }
  });

  it('recognises the errors of a server without Atlas Search', () => {
    expect(
      isSearchUnsupported(
        serverError({ code: 40324, message: "Unrecognized pipeline stage name: '$vectorSearch'" }),
      ),
    ).toBe(true);
    expect(isSearchUnsupported(serverError({ code: 31082, codeName: 'SearchNotEnabled' }))).toBe(
      true,
    );
    expect(isSearchUnsupported(serverError({ code: 59, codeName: 'CommandNotFound' }))).toBe(true);
    expect(
      isSearchUnsupported(
        serverError({ message: '$vectorSearch stage is only allowed on MongoDB Atlas' }),
      ),
    ).toBe(true);
    expect(
      isSearchUnsupported(
        serverError({ code: 13, codeName: 'Unauthorized', message: 'not authorized' }),
      ),
    ).toBe(false);
    expect(isSearchUnsupported(null)).toBe(false);
  });
});
