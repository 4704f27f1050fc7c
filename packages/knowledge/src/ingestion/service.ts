// The ingestion pipeline (issue 18 item 4): a file, a crawled page or the extension's page
// content becomes Markdown (extractors, main-content extraction), then chunks with heading
// paths, then embeddings when a model is configured, then rows in the store. Re-ingesting a
// source whose content changed supersedes its old chunks (RAG stops returning them at once);
// the same content again changes nothing. Nothing is lost on failure: new chunks are written
// before old ones are superseded, and a failed embedding stores the chunks lexical-only.
import { createHash } from 'node:crypto';
import type { KnowledgeSource } from '@tandem/contracts';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeRepository } from '@tandem/store';
import type { Embedder } from '../embeddings/port';
import { detectType } from '../extractors/detect';
import { extractDocument, type ExtractOptions, type InjectedKind } from '../extractors/extract';
import type { ExtractedDocument } from '../extractors/types';
import { chunkForRetrieval, type RetrievalChunk } from './chunk';
import {
  inlineParsers,
  type ContentParsers,
  type DocumentForRetrieval,
  type DocumentInput,
} from './parsers';

export interface KnowledgeQuotas {
  documents: number;
  bytes: number;
}

/** The tenant is over a quota; routes answer 403 QUOTA_EXCEEDED with this message. */
export class QuotaExceededError extends Error {
  override readonly name = 'QuotaExceededError';
}

export interface IngestionDeps {
  knowledge: KnowledgeRepository;
  embedder: Embedder | null;
  quotas: KnowledgeQuotas;
  /**
   * Formats read by a service rather than a parser (office conversion, transcription): these
   * handlers run on the calling thread, since they wait on the network, not on the CPU.
   */
  extractOptions?: Pick<ExtractOptions, 'handlers'>;
  /** Where files and pages are parsed: the server's worker pool; inline by default. */
  parsers?: ContentParsers;
  onEmbeddingError?: (error: unknown) => void;
}

/** What one stored source is: the common input of every ingestion path. */
export interface SourceContent {
  tenantId: string;
  /** Identity of the source: re-ingesting the same one supersedes its chunks. */
  sourceUrl: string;
  domain: string;
  title: string;
  mimeType: string;
  markdown: string;
  sizeBytes: number;
  source: KnowledgeSource;
  jobId?: string | null;
  warnings?: string[];
  /** The Markdown already cut into retrieval chunks (where it was read); cut here otherwise. */
  chunks?: RetrievalChunk[];
}

export interface StoredSource {
  document: KnowledgeDocument;
  chunksAdded: number;
  chunksSuperseded: number;
  unchanged: boolean;
  embedded: boolean;
}

export const contentHash = (text: string): string =>
  createHash('sha256').update(text).digest('hex');

/**
 * How long one write of chunks may hold the thread. The embedded store writes synchronously,
 * and with embeddings its vector index costs about 4.5 ms a row once it holds a few thousand:
 * one write of a 10 MB text's 7,000 chunks held every request of the server for 30 s. Writes
 * are sized from the last one's time to stay near this, and the event loop runs between them.
 */
const WRITE_SLICE_MS = 20;
const FIRST_WRITE_ROWS = 16;
const MAX_WRITE_ROWS = 500;
/** Old chunks marked superseded per statement. */
const SUPERSEDE_SLICE = 1_000;

export class KnowledgeIngestion {
  readonly parsers: ContentParsers;

  constructor(private readonly deps: IngestionDeps) {
    this.parsers = deps.parsers ?? inlineParsers();
  }

  /** An uploaded file: its type detected from the bytes, its text extracted (OCR for scans). */
  async ingestFile(input: {
    tenantId: string;
    bytes: Uint8Array;
    fileName: string;
    mimeType?: string;
    domain: string;
    title?: string;
    sourceUrl?: string;
    /** A crawl that met a PDF or a text file stores it as crawled, under its job. */
    source?: KnowledgeSource;
    jobId?: string;
    /** See DocumentInput.handOver. */
    handOver?: boolean;
  }): Promise<StoredSource> {
    // Without a source URL the file name is the identity: uploading it again replaces it.
    const sourceUrl = input.sourceUrl ?? `upload://${encodeURIComponent(input.fileName)}`;
    // Read before the bytes may be handed over to the parse pool.
    const sizeBytes = input.bytes.byteLength;
    await this.checkQuota(input.tenantId, sizeBytes, sourceUrl);
    const extracted = await this.readFileForRetrieval(input);
    return this.storeSource({
      tenantId: input.tenantId,
      sourceUrl,
      domain: input.domain,
      title: input.title ?? extracted.title,
      mimeType: extracted.mimeType,
      markdown: extracted.markdown,
      sizeBytes,
      source: input.source ?? 'upload',
      jobId: input.jobId ?? null,
      warnings: extracted.warnings,
      chunks: extracted.chunks,
    });
  }

  /** readFile, and the Markdown cut into retrieval chunks where it was read. */
  private async readFileForRetrieval(input: DocumentInput): Promise<DocumentForRetrieval> {
    if (this.serviceHandler(input) === null) return this.parsers.documentForRetrieval(input);
    const document = await this.readFile(input);
    return { ...document, chunks: chunkForRetrieval(document.markdown) };
  }

  /**
   * A file's text, read the way ingestion reads it (type detection, OCR, HTML main content,
   * the configured office converter), without storing anything: document extraction reads
   * uploads through it too.
   */
  readFile(input: DocumentInput): Promise<ExtractedDocument> {
    const service = this.serviceHandler(input);
    if (!service) return this.parsers.document(input);
    return extractDocument(input.bytes, {
      fileName: input.fileName,
      ...(input.mimeType ? { mimeType: input.mimeType } : {}),
      ...(input.tenantId ? { tenantId: input.tenantId } : {}),
      limits: this.parsers.limits,
      handlers: { [service]: this.deps.extractOptions?.handlers?.[service] },
    });
  }

  /** The injected handler kind that reads this file, when a service reads it. */
  private serviceHandler(input: DocumentInput): InjectedKind | null {
    const handlers = this.deps.extractOptions?.handlers;
    if (!handlers) return null;
    const { kind } = detectType(input.bytes, input);
    return kind in handlers && kind !== 'html' && kind !== 'image' ? (kind as InjectedKind) : null;
  }

  /** Stores a source's Markdown: unchanged, new, or superseding the source's old chunks. */
  async storeSource(input: SourceContent): Promise<StoredSource> {
    const { knowledge } = this.deps;
    const hash = contentHash(input.markdown);
    const [existing] = await knowledge.listDocuments(input.tenantId, {
      sourceUrl: input.sourceUrl,
    });
    if (existing && existing.status === 'ready' && existing.metadata.contentHash === hash) {
      return {
        document: existing,
        chunksAdded: 0,
        chunksSuperseded: 0,
        unchanged: true,
        embedded: existing.metadata.embedded === true,
      };
    }
    if (!existing) await this.checkQuota(input.tenantId, input.sizeBytes, null);
    const document =
      existing ??
      (await knowledge.createDocument(input.tenantId, {
        domain: input.domain,
        title: input.title,
        mimeType: input.mimeType,
        sourceUrl: input.sourceUrl,
        status: 'pending',
        metadata: { source: input.source, sizeBytes: input.sizeBytes },
      }));
    try {
      return await this.replaceChunks(document, input, hash);
    } catch (error) {
      await knowledge.updateDocument(input.tenantId, document.id, {
        status: existing ? existing.status : 'failed',
        metadata: { ...document.metadata, error: errorMessage(error) },
      });
      throw error;
    }
  }

  private async replaceChunks(
    document: KnowledgeDocument,
    input: SourceContent,
    hash: string,
  ): Promise<StoredSource> {
    const { knowledge } = this.deps;
    const pieces = input.chunks ?? chunkForRetrieval(input.markdown);
    const { vectors, warning } = await this.embedChunks(input.tenantId, pieces);
    const old = await knowledge.listChunks(input.tenantId, { documentId: document.id });
    const added = await this.addInBatches(
      input.tenantId,
      document.id,
      pieces.map((piece, index) => ({
        ordinal: (old.at(-1)?.ordinal ?? -1) + 1 + index,
        content: piece.content,
        headingPath: piece.headingPath,
        tokenCount: piece.tokenCount,
        embedding: vectors?.[index] ?? null,
        phase: input.source === 'page' ? 'initial' : null,
      })),
    );
    const superseded = added[0]
      ? await this.supersedeInSlices(input.tenantId, old, added[0].id)
      : 0;
    const warnings = [...(input.warnings ?? []), ...(warning ? [warning] : [])];
    const updated = await knowledge.updateDocument(input.tenantId, document.id, {
      status: 'ready',
      title: input.title,
      metadata: documentMetadata(input, hash, vectors !== null, warnings),
    });
    return {
      document: updated ?? document,
      chunksAdded: added.length,
      chunksSuperseded: superseded,
      unchanged: false,
      embedded: vectors !== null,
    };
  }

  /**
   * Writes chunks in slices of about WRITE_SLICE_MS, letting other requests run between them.
   * Should a slice fail, those written before it are marked superseded: a document is never
   * half there.
   */
  private async addInBatches(
    tenantId: string,
    documentId: string,
    chunks: Parameters<KnowledgeRepository['addChunks']>[2],
  ): Promise<KnowledgeChunk[]> {
    const { knowledge } = this.deps;
    const added: KnowledgeChunk[] = [];
    let rows = FIRST_WRITE_ROWS;
    try {
      for (let start = 0; start < chunks.length;) {
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        const slice = chunks.slice(start, start + rows);
        const began = performance.now();
        added.push(...(await knowledge.addChunks(tenantId, documentId, slice)));
        start += slice.length;
        const perRow = Math.max((performance.now() - began) / slice.length, 0.01);
        rows = Math.max(1, Math.min(MAX_WRITE_ROWS, Math.floor(WRITE_SLICE_MS / perRow)));
      }
      return added;
    } catch (error) {
      if (added[0]) {
        const ids = added.map((chunk) => chunk.id);
        await knowledge.markSuperseded(tenantId, ids, added[0].id).catch(() => 0);
      }
      throw error;
    }
  }

  /** Old chunks superseded a slice at a time, for the same reason chunks are written so. */
  private async supersedeInSlices(
    tenantId: string,
    old: readonly KnowledgeChunk[],
    by: string,
  ): Promise<number> {
    let count = 0;
    for (let start = 0; start < old.length; start += SUPERSEDE_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const ids = old.slice(start, start + SUPERSEDE_SLICE).map((c) => c.id);
      count += await this.deps.knowledge.markSuperseded(tenantId, ids, by);
    }
    return count;
  }

  /** Embeddings for the chunks, or null (lexical only) without a model or when it failed. */
  async embedChunks(
    tenantId: string,
    pieces: Pick<RetrievalChunk, 'content' | 'headingPath'>[],
  ): Promise<{ vectors: number[][] | null; warning?: string }> {
    const { embedder } = this.deps;
    if (embedder === null || pieces.length === 0) return { vectors: null };
    try {
      // The heading path is part of what a chunk is about ("Webhooks > Retries").
      const texts = pieces.map((p) => [p.headingPath.join(' > '), p.content].join('\n').trim());
      return { vectors: await embedder.embed(texts, 'document', { tenantId }) };
    } catch (error) {
      this.deps.onEmbeddingError?.(error);
      return {
        vectors: null,
        warning: `Stored without embeddings (lexical search only): ${errorMessage(error)}`,
      };
    }
  }

  /** Throws QuotaExceededError when one more document of `bytes` would pass a quota. */
  async checkQuota(tenantId: string, bytes: number, sourceUrl: string | null): Promise<void> {
    const { knowledge, quotas } = this.deps;
    const usage = await knowledge.usage(tenantId);
    const replacing =
      sourceUrl !== null && (await knowledge.listDocuments(tenantId, { sourceUrl })).length > 0;
    if (!replacing && usage.documents + 1 > quotas.documents) {
      throw new QuotaExceededError(
        `Knowledge quota reached: ${usage.documents} of ${quotas.documents} documents. Delete some to add more.`,
      );
    }
    if (usage.bytes + bytes > quotas.bytes) {
      throw new QuotaExceededError(
        `Knowledge quota reached: ${formatMb(usage.bytes)} of ${formatMb(quotas.bytes)} stored; this source is ${formatMb(bytes)}.`,
      );
    }
  }
}

function documentMetadata(
  input: SourceContent,
  hash: string,
  embedded: boolean,
  warnings: string[],
): Record<string, unknown> {
  return {
    source: input.source,
    sizeBytes: input.sizeBytes,
    contentHash: hash,
    embedded,
    warnings,
    jobId: input.jobId ?? null,
    error: null,
  };
}

const formatMb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Chunks of a document that are current, keyed by content, for de-duplication. */
export const contentsOf = (chunks: KnowledgeChunk[]): Set<string> =>
  new Set(chunks.map((c) => c.content.trim()));
