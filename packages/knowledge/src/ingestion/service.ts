// The ingestion pipeline: a file, a crawled page or the extension's page
// content becomes Markdown (extractors, main-content extraction), then chunks with heading
// paths, then embeddings when a model is configured, then rows in the store. Re-ingesting a
// source whose content changed supersedes its old chunks (RAG stops returning them at once);
// the same content again changes nothing. Nothing is lost on failure: new chunks are written
// before old ones are superseded, and a failed embedding stores the chunks lexical-only.
import { createHash } from 'node:crypto';
import type { KnowledgeSource } from '@tandem/contracts';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeRepository } from '@tandem/store';
import type { Embedder } from '@tandem/llm';
import { detectType } from '../extractors/detect';
import { extractDocument, type ExtractOptions, type InjectedKind } from '../extractors/extract';
import type { ExtractedDocument } from '../extractors/types';
import { chunkForRetrieval, type RetrievalChunk } from './chunk';
import {
  inlineParsers,
  type ContentParsers,
  type DocumentForRetrieval,
  type DocumentInput,
  withRetrievalChunks,
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
const WRITE_SLICE_MS = 10;
const FIRST_WRITE_ROWS = 16;
const MAX_WRITE_ROWS = 500;
/**
 * Chunks embedded and written as one group. The embedder splits a group by its provider's cap
 * (Gemini 100, OpenAI-compatible 64): 192 is three full OpenAI calls and two Gemini calls.
 */
const EMBED_GROUP = 192;
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
    return withRetrievalChunks(await this.readFile(input));
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
    const old = await knowledge.listChunks(input.tenantId, { documentId: document.id });
    const written = await this.embedAndWrite(input, document.id, pieces, old.at(-1)?.ordinal);
    const superseded = written.ids[0]
      ? await this.supersedeInSlices(input.tenantId, old, written.ids[0])
      : 0;
    const warnings = [...(input.warnings ?? []), ...(written.warning ? [written.warning] : [])];
    const updated = await knowledge.updateDocument(input.tenantId, document.id, {
      status: 'ready',
      title: input.title,
      metadata: documentMetadata(input, hash, written.embedded, warnings),
    });
    return {
      document: updated ?? document,
      chunksAdded: written.ids.length,
      chunksSuperseded: superseded,
      unchanged: false,
      embedded: written.embedded,
    };
  }

  /**
   * Embeds the chunks a group at a time and writes each group as its vectors arrive. A group's
   * texts, vectors and rows are garbage before the next is read: holding a 10 MB text's 7,000
   * vectors and rows to the end of the request grew the heap by ~130 MB, which V8 gave back only
   * a minute or more after the server went idle. Should embedding fail, the rest is written
   * lexical-only and the warning says from which chunk; should a write fail, the chunks written
   * before it are marked superseded: a document is never half there.
   */
  private async embedAndWrite(
    input: SourceContent,
    documentId: string,
    pieces: RetrievalChunk[],
    lastOrdinal: number | undefined,
  ): Promise<{ ids: string[]; embedded: boolean; warning?: string }> {
    const writer = new SliceWriter(this.deps.knowledge, input.tenantId, documentId);
    let embedding = this.deps.embedder !== null && pieces.length > 0;
    let warning: string | undefined;
    try {
      for (let start = 0; start < pieces.length; start += EMBED_GROUP) {
        const group = pieces.slice(start, start + EMBED_GROUP);
        let vectors: number[][] | null = null;
        if (embedding) {
          const result = await this.embedChunks(input.tenantId, group);
          vectors = result.vectors;
          if (vectors === null) {
            embedding = false;
            warning =
              start === 0
                ? result.warning
                : `${result.warning ?? 'Embedding failed'} (chunks ${start + 1}–${pieces.length} of ${pieces.length}; the ones before have embeddings)`;
          }
        }
        await writer.write(
          group.map((piece, index) => ({
            ordinal: (lastOrdinal ?? -1) + 1 + start + index,
            content: piece.content,
            headingPath: piece.headingPath,
            tokenCount: piece.tokenCount,
            embedding: vectors?.[index] ?? null,
            phase: input.source === 'page' ? 'initial' : null,
          })),
        );
      }
    } catch (error) {
      await writer.undo();
      throw error;
    }
    return { ids: writer.ids, embedded: embedding, ...(warning ? { warning } : {}) };
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

/**
 * Writes chunks in slices of about WRITE_SLICE_MS, letting other requests run between them,
 * and keeps the ids written (not the records: they carry their embeddings).
 */
class SliceWriter {
  readonly ids: string[] = [];
  private rows = FIRST_WRITE_ROWS;

  constructor(
    private readonly knowledge: KnowledgeRepository,
    private readonly tenantId: string,
    private readonly documentId: string,
  ) {}

  async write(chunks: Parameters<KnowledgeRepository['addChunks']>[2]): Promise<void> {
    for (let start = 0; start < chunks.length;) {
      if (this.ids.length > 0) await new Promise((resolve) => setImmediate(resolve));
      const slice = chunks.slice(start, start + this.rows);
      const began = performance.now();
      for (const chunk of await this.knowledge.addChunks(this.tenantId, this.documentId, slice))
        this.ids.push(chunk.id);
      start += slice.length;
      const perRow = Math.max((performance.now() - began) / slice.length, 0.01);
      this.rows = Math.max(1, Math.min(MAX_WRITE_ROWS, Math.floor(WRITE_SLICE_MS / perRow)));
    }
  }

  /** Marks what was written superseded, after a failure. */
  async undo(): Promise<void> {
    const [first] = this.ids;
    if (first) await this.knowledge.markSuperseded(this.tenantId, this.ids, first).catch(() => 0);
  }
}
