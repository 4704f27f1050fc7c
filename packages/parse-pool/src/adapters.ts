// The pool behind the ports the packages parse through: knowledge's ContentParsers (files,
// web pages) and extraction's PageReader (an extraction's page). Work for no tenant in
// particular shares one turn in the fair queue.
import type { PageReader } from '@tandem/extraction';
import type { ContentParsers } from '@tandem/knowledge/ingestion';
import type { ParsePool } from './pool';

const SHARED = 'shared';

/**
 * The buffer a caller gave up, to move to the thread rather than copy. Never a buffer larger
 * views may share: Node's pool for small Buffers is one ArrayBuffer under many of them.
 */
function handedOver(input: { bytes: Uint8Array; handOver?: boolean }): ArrayBuffer[] {
  const { buffer, byteOffset } = input.bytes;
  const own =
    buffer instanceof ArrayBuffer && byteOffset === 0 && buffer.byteLength > Buffer.poolSize;
  return input.handOver && own ? [buffer] : [];
}

export function poolParsers(pool: ParsePool): ContentParsers {
  return {
    limits: pool.limits,
    document: (input) => pool.run(input.tenantId ?? SHARED, 'document', input, handedOver(input)),
    documentForRetrieval: (input) =>
      pool.run(input.tenantId ?? SHARED, 'documentForRetrieval', input, handedOver(input)),
    mainContent: (input) => pool.run(input.tenantId ?? SHARED, 'mainContent', input),
    inspectArchive: async (input) => {
      await pool.run(input.tenantId ?? SHARED, 'inspectArchive', input);
    },
  };
}

export function poolPageReader(pool: ParsePool): PageReader {
  return {
    read: (request) => pool.run(request.tenantId ?? SHARED, 'pageRead', request),
    learn: (request) => pool.run(request.tenantId ?? SHARED, 'pageLearn', request),
  };
}
