// Query documents of knowledge documents, chunks and settings. Chunks carry their document's
// domain, so RAG reads a domain's chunks from one index without a $lookup.
import { knowledgeVectorIndexName } from './mongo-vector-index';
import { jsonValue } from '../../mongo/queries/json';
import type { Filter, FindSpec, Pipeline, UpdateSpec } from '../../mongo/queries/spec';

/** $vectorSearch's ceiling for numCandidates. */
const MAX_CANDIDATES = 10_000;

export const documentFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

export function documentsQuery(
  tenantId: string,
  options: { domain?: string; sourceUrl?: string },
): FindSpec {
  const filter: Filter = { tenantId };
  if (options.domain !== undefined) filter.domain = options.domain;
  if (options.sourceUrl !== undefined) filter.sourceUrl = options.sourceUrl;
  return { filter, sort: { createdAt: 1, id: 1 } };
}

export function documentUpdate(
  tenantId: string,
  id: string,
  patch: { status?: string; title?: string; metadata?: Record<string, unknown> },
  now: Date,
): UpdateSpec {
  const set: Record<string, unknown> = { updatedAt: now };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.metadata !== undefined) set.metadata = jsonValue(patch.metadata);
  return { filter: documentFilter(tenantId, id), update: { $set: set } };
}

export const documentChunksFilter = (tenantId: string, documentId: string): Filter => ({
  tenantId,
  documentId,
});

/** Current chunks (supersededBy null or missing) of these domains: what RAG may read. */
export const currentChunksFilter = (tenantId: string, domains: readonly string[]): Filter => ({
  tenantId,
  domain: { $in: [...domains] },
  supersededBy: null,
});

export function chunksQuery(
  tenantId: string,
  options: { documentId?: string; domain?: string | string[]; includeSuperseded?: boolean },
): FindSpec {
  const filter: Filter = { tenantId };
  if (options.documentId !== undefined) filter.documentId = options.documentId;
  if (typeof options.domain === 'string') filter.domain = options.domain;
  else if (options.domain !== undefined) filter.domain = { $in: options.domain };
  // Matches null and missing alike.
  if (options.includeSuperseded !== true) filter.supersededBy = null;
  return { filter, sort: { documentId: 1, ordinal: 1, _id: 1 } };
}

export const supersedeUpdate = (
  tenantId: string,
  chunkIds: readonly string[],
  supersededBy: string,
): UpdateSpec => ({
  filter: { tenantId, id: { $in: [...chunkIds] } },
  update: { $set: { supersededBy } },
});

/** The chunks an exact cosine ranking reads: current, of these domains, of the query's length. */
export const exactVectorFilter = (
  tenantId: string,
  domains: readonly string[],
  dimensions: number,
): Filter => ({ ...currentChunksFilter(tenantId, domains), embedding: { $size: dimensions } });

/**
 * BM25-like lexical search through the chunks' text index: space-separated plain words, which
 * $text ORs (queryTerms left no quote and no leading '-', the only syntax $search has). Search
 * results carry no embedding (see the port): not worth sending.
 */
export function lexicalSearchQuery(
  tenantId: string,
  domains: readonly string[],
  terms: readonly string[],
  limit: number,
): FindSpec {
  return {
    filter: {
      tenantId,
      $text: { $search: terms.join(' ') },
      ...currentChunksFilter(tenantId, domains),
    },
    projection: { score: { $meta: 'textScore' }, embedding: 0 },
    sort: { score: { $meta: 'textScore' }, id: 1 },
    limit,
  };
}

/**
 * Atlas Vector Search over the dimension's index, pre-filtered (declared `filter` fields of the
 * index) so other tenants' vectors never take a slot of this tenant's result; each hit is the
 * chunk with its score.
 */
export function vectorSearchPipeline(
  tenantId: string,
  domains: readonly string[],
  embedding: number[],
  limit: number,
): Pipeline {
  return [
    {
      $vectorSearch: {
        index: knowledgeVectorIndexName(embedding.length),
        path: 'embedding',
        queryVector: embedding,
        numCandidates: Math.min(MAX_CANDIDATES, Math.max(limit * 20, 200)),
        limit,
        filter: currentChunksFilter(tenantId, domains),
      },
    },
    ...vectorHitStages(),
  ];
}

/** What follows $vectorSearch: each hit as the chunk document with its `score`. */
export function vectorHitStages(): Pipeline {
  return [
    { $project: { _id: 0, score: { $meta: 'vectorSearchScore' }, doc: '$$ROOT' } },
    { $replaceWith: { $mergeObjects: ['$doc', { score: '$score' }] } },
  ];
}

/** Current chunk counts per document. */
export const chunkCountsPipeline = (tenantId: string): Pipeline => [
  { $match: { tenantId, supersededBy: null } },
  { $group: { _id: '$documentId', chunks: { $sum: 1 } } },
];

/** Bytes of the tenant's documents ($sum skips values that are not numbers, as SQL does). */
export const documentBytesPipeline = (tenantId: string): Pipeline => [
  { $match: { tenantId } },
  { $group: { _id: null, bytes: { $sum: '$metadata.sizeBytes' } } },
];

export const settingsFilter = (tenantId: string): Filter => ({ tenantId });

export const settingsUpdate = (
  tenantId: string,
  allowedDomains: readonly string[],
  now: Date,
): UpdateSpec => ({
  filter: settingsFilter(tenantId),
  update: { $set: { allowedDomains: jsonValue(allowedDomains), updatedAt: now } },
  upsert: true,
});
