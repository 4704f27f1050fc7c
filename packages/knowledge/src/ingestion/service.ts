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
import { inlineParsers, type ContentParsers, type DocumentInput } from './parsers';

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
  }): Promise<StoredSource> {
    // Without a source URL the file name is the identity: uploading it again replaces it.
    const sourceUrl = input.sourceUrl ?? `upload://${encodeURIComponent(input.fileName)}`;
    await this.checkQuota(input.tenantId, input.bytes.byteLength, sourceUrl);
    const extracted = await this.readFile(input);
    return this.storeSource({
      tenantId: input.tenantId,
      sourceUrl,
      domain: input.domain,
      title: input.title ?? extracted.title,
      mimeType: extracted.mimeType,
      markdown: extracted.markdown,
      sizeBytes: input.bytes.byteLength,
      source: input.source ?? 'upload',
      jobId: input.jobId ?? null,
      warnings: extracted.warnings,
    });
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
    const pieces = chunkForRetrieval(input.markdown);
    const { vectors, warning } = await this.embedChunks(input.tenantId, pieces);
    const old = await knowledge.listChunks(input.tenantId, { documentId: document.id });
    const added = await knowledge.addChunks(
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
    const superseded =
      old.length > 0 && added[0]
        ? await knowledge.markSuperseded(
            input.tenantId,
            old.map((c) => c.id),
            added[0].id,
          )
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
