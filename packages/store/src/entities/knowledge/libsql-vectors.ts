// Chunk embeddings as libSQL native vectors. A vector column's type carries its dimension
// (F32_BLOB(768)), and the dimension depends on the embedding model, which only a write
// reveals. So each dimension gets its own side table, created on the first write of a vector of
// that length, with its own ANN index:
//
//   knowledge_vectors_<n> (chunk_id PK, tenant_id, domain, embedding F32_BLOB(<n>))
//   knowledge_vectors_<n>_ann   libsql_vector_idx(embedding, cosine, float8 neighbours, 16)
//   knowledge_vectors_<n>_tenant_domain   (tenant_id, domain): the exact-scan fallback
//   knowledge_vectors_<n>_delete   trigger: deleting a chunk deletes its vector
//
// A query vector only ever reads the table of its own length, which is what "only chunks whose
// embedding has the query's length are candidates" means. tenant_id and domain are copied
// from the chunk (neither ever changes) so the fallback scan reads one index range;
// supersession is read from knowledge_chunks at query time. The chunk's JSON `embedding`
// column is still written: listChunks returns the exact values given, not float32 roundings.
import type { InStatement } from '@libsql/client';
import { MAX_VECTOR_DIMENSIONS } from './search';
import type { SqlClient } from '../../libsql/native-client';

export function assertDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_VECTOR_DIMENSIONS) {
    throw new Error(
      `Embedding dimension must be an integer in 1..${MAX_VECTOR_DIMENSIONS} (got ${dimensions})`,
    );
  }
}

/** Only ever built from a checked integer, so the name is safe to splice into SQL. */
export function vectorTable(dimensions: number): string {
  assertDimensions(dimensions);
  return `knowledge_vectors_${dimensions}`;
}

export const vectorIndex = (dimensions: number): string => `${vectorTable(dimensions)}_ann`;

/** Idempotent DDL for one dimension's table, indexes and delete trigger. */
export function vectorTableStatements(dimensions: number): string[] {
  const table = vectorTable(dimensions);
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      chunk_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      domain TEXT NOT NULL,
      embedding F32_BLOB(${dimensions}) NOT NULL
    )`,
    // Compressed neighbour lists (float8) and 16 neighbours per node: measured on 2 000 random
    // 768-dim vectors, an insert costs 3.5 ms instead of 33 ms with the defaults, a query 8 ms
    // instead of 20, at 0.94 recall@10 (random vectors are the hard case; searches ask the
    // index for ≥ 200 candidates and rank them exactly, see libsql.ts).
    `CREATE INDEX IF NOT EXISTS ${table}_ann ON ${table} (libsql_vector_idx(embedding, 'metric=cosine', 'compress_neighbors=float8', 'max_neighbors=16'))`,
    `CREATE INDEX IF NOT EXISTS ${table}_tenant_domain ON ${table} (tenant_id, domain)`,
    // A trigger, like the FTS ones: every path that deletes chunks drops their vectors in the
    // same statement, so no search can return a deleted chunk's vector.
    `CREATE TRIGGER IF NOT EXISTS ${table}_delete AFTER DELETE ON knowledge_chunks BEGIN
      DELETE FROM ${table} WHERE chunk_id = old.id;
    END`,
  ];
}

export function insertVectorStatement(
  dimensions: number,
  row: { chunkId: string; tenantId: string; domain: string; embedding: readonly number[] },
): InStatement {
  return {
    sql: `INSERT INTO ${vectorTable(dimensions)} (chunk_id, tenant_id, domain, embedding)
          VALUES (?, ?, ?, vector32(?))`,
    args: [row.chunkId, row.tenantId, row.domain, JSON.stringify(row.embedding)],
  };
}

export async function vectorTableExists(client: SqlClient, dimensions: number): Promise<boolean> {
  const result = await client.execute({
    sql: "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?",
    args: [vectorTable(dimensions)],
  });
  return result.rows.length > 0;
}

/**
 * Copies embeddings of chunks written before vectors had tables (migration 4) into their
 * dimension's table. Idempotent (INSERT OR IGNORE); run once, right after that migration.
 * Arrays holding anything but numbers were never searchable and are left out.
 */
export async function backfillKnowledgeVectors(client: SqlClient): Promise<void> {
  const valid = `json_type(embedding) = 'array' AND json_array_length(embedding) > 0
    AND NOT EXISTS (SELECT 1 FROM json_each(knowledge_chunks.embedding)
                    WHERE type NOT IN ('integer', 'real'))`;
  const lengths = await client.execute(
    `SELECT DISTINCT json_array_length(embedding) AS dimensions FROM knowledge_chunks
     WHERE embedding IS NOT NULL AND ${valid}`,
  );
  for (const row of lengths.rows) {
    const dimensions = Number(row.dimensions);
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_VECTOR_DIMENSIONS) {
      continue;
    }
    await client.batch(
      [
        ...vectorTableStatements(dimensions),
        {
          sql: `INSERT OR IGNORE INTO ${vectorTable(dimensions)} (chunk_id, tenant_id, domain, embedding)
                SELECT id, tenant_id, domain, vector32(embedding) FROM knowledge_chunks
                WHERE embedding IS NOT NULL AND ${valid} AND json_array_length(embedding) = ?`,
          args: [dimensions],
        },
      ],
      'write',
    );
  }
}
