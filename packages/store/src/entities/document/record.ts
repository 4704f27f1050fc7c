// Uploaded documents (their text per page) and the extractions of their fields, with each
// extraction's history of tool writes.
import type { DocumentExtractionStatus, DocumentStatus, FieldPathSegment } from '@tandem/contracts';
import type { Page } from '../../port';
import { newId } from '../../shared';

/** One page of a document's text (knowledge extractors, OCR included); numbers start at 1. */
export interface DocumentPage {
  number: number;
  text: string;
}

/** An uploaded document kept for extraction: its text per page, read once at upload. */
export interface DocumentRecord {
  id: string;
  tenantId: string;
  /** The user who uploaded it; only that user's agents read it. */
  userId: string;
  fileName: string;
  title: string;
  mimeType: string;
  sizeBytes: number;
  pages: DocumentPage[];
  pageCount: number;
  /** Characters of text over every page. */
  characters: number;
  warnings: string[];
  /**
   * An upload is stored `processing` with no pages, and its job (the document's own record is
   * the job's) makes it `ready` with its text or `failed`; only a `ready` one is extracted.
   */
  status: DocumentStatus;
  /** Why reading it failed; null unless `failed`. */
  error: string | null;
  /** The contract error code of the failure (a 4xx: the file's own fault); null unless `failed`. */
  failureCode: string | null;
  createdAt: string;
}

/** A document without its text, for lists. */
export type DocumentSummary = Omit<DocumentRecord, 'pages'>;

/**
 * One extraction of one document (the document-extraction agent spec in docs/specs.md): fields the
 * agent's tools wrote, confidences of the same shape (a number where the fields have a value),
 * status, and what its model calls cost.
 */
export interface DocumentExtraction {
  id: string;
  tenantId: string;
  userId: string;
  documentId: string;
  status: DocumentExtractionStatus;
  documentType: string | null;
  fields: Record<string, unknown>;
  confidences: Record<string, unknown>;
  /** JSON Schema the fields must match, when the user gave one. */
  schema: Record<string, unknown> | null;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  /** Why the last run stopped early; null after a run that did not. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One tool write of an extraction, appended in the same atomic write as the change itself. */
export interface ExtractionWrite {
  tenantId: string;
  extractionId: string;
  /** 1, 2, 3… per extraction, in write order. */
  seq: number;
  tool: string;
  input: unknown;
  createdAt: string;
}

/** What a write tool was called with, for the history. */
export interface WriteRecord {
  tool: string;
  input: unknown;
}

export type NewDocumentRecord = Pick<
  DocumentRecord,
  'userId' | 'fileName' | 'title' | 'mimeType' | 'sizeBytes' | 'pages'
> &
  Partial<Pick<DocumentRecord, 'id' | 'warnings' | 'status'>>;

export type NewDocumentExtraction = Pick<DocumentExtraction, 'userId' | 'documentId'> &
  Partial<Pick<DocumentExtraction, 'id' | 'schema' | 'instructions'>>;

export interface DocumentRepository {
  create(tenantId: string, input: NewDocumentRecord): Promise<DocumentRecord>;
  /** With `userId`, null unless that user uploaded it. */
  get(tenantId: string, id: string, options?: { userId?: string }): Promise<DocumentRecord | null>;
  /** Newest first, without the text; default 50. */
  list(tenantId: string, options?: { userId?: string; limit?: number }): Promise<DocumentSummary[]>;
  /**
   * A `processing` document read: its text and what the reader found. Null (nothing changed)
   * unless it was `processing`: a finished document is never overwritten.
   */
  markReady(
    tenantId: string,
    id: string,
    input: Pick<DocumentRecord, 'title' | 'mimeType' | 'pages' | 'warnings'>,
  ): Promise<DocumentRecord | null>;
  /** A `processing` document that could not be read; null unless it was `processing`. */
  markFailed(
    tenantId: string,
    id: string,
    input: { error: string; failureCode: string },
  ): Promise<DocumentRecord | null>;
  /** A `failed` document back to `processing` for a retry (error cleared); null unless `failed`. */
  reopen(tenantId: string, id: string): Promise<DocumentRecord | null>;
}

/**
 * Extractions and their write history. Every write names the user as well as the tenant and
 * changes nothing of another user's extraction. Writes that carry a `write` append it to the
 * history in the same atomic write as the change: a history entry exists exactly when its
 * change does. A write that returns null changed nothing.
 */
export interface DocumentExtractionRepository {
  create(tenantId: string, input: NewDocumentExtraction): Promise<DocumentExtraction>;
  /** With `userId`, null unless the extraction is that user's. */
  get(
    tenantId: string,
    id: string,
    options?: { userId?: string },
  ): Promise<DocumentExtraction | null>;
  /** Newest first (createdAt, then id); default 20. */
  list(
    tenantId: string,
    options?: { userId?: string; documentId?: string; limit?: number; cursor?: string | null },
  ): Promise<Page<DocumentExtraction>>;
  setDocumentType(
    tenantId: string,
    id: string,
    input: { userId: string; documentType: string; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** Replaces every field and confidence (the agent's extract_fields). */
  replaceFields(
    tenantId: string,
    id: string,
    input: {
      userId: string;
      fields: Record<string, unknown>;
      confidences: Record<string, unknown>;
      write: WriteRecord;
    },
  ): Promise<DocumentExtraction | null>;
  /**
   * Sets `value` at `path` in the fields and `confidence` at the same path in the confidences,
   * in one atomic update (libSQL json_set, Mongo $set/$push on the path). The path's parent must
   * already exist in the fields: an object (the key is set or replaced) or an array whose length
   * is at least the index (the element is replaced, or appended at index = length). Otherwise
   * null and nothing changes.
   */
  setField(
    tenantId: string,
    id: string,
    input: {
      userId: string;
      path: FieldPathSegment[];
      value: unknown;
      confidence: unknown;
      write: WriteRecord;
    },
  ): Promise<DocumentExtraction | null>;
  /**
   * Removes the value at `path` (and its confidence) in one atomic update; an array element's
   * followers move up one place. Null, changing nothing, when the path does not exist.
   */
  removeField(
    tenantId: string,
    id: string,
    input: { userId: string; path: FieldPathSegment[]; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** Marks it completed unless it has no fields (then null, unchanged); clears `error`. */
  complete(
    tenantId: string,
    id: string,
    input: { userId: string; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** The run's outcome (no history entry: not a tool write). */
  setStatus(
    tenantId: string,
    id: string,
    input: { userId: string; status?: DocumentExtractionStatus; error: string | null },
  ): Promise<DocumentExtraction | null>;
  /** Adds one model call's cost and tokens (atomic increments; concurrent adds both count). */
  addUsage(
    tenantId: string,
    id: string,
    usage: { costMicroUsd: number; tokens: number },
  ): Promise<void>;
  /**
   * The history, oldest first; with `afterSeq`, only the writes after that seq (what a run's
   * stream follower missed, or the write a tool just made).
   */
  listWrites(
    tenantId: string,
    id: string,
    options?: { afterSeq?: number },
  ): Promise<ExtractionWrite[]>;
}

/** A document as uploaded: page count and characters are derived once, here. */
export function newDocumentRecord(
  tenantId: string,
  input: NewDocumentRecord,
  now: string,
): DocumentRecord {
  const pages = input.pages.map((page) => ({ number: page.number, text: page.text }));
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    fileName: input.fileName,
    title: input.title,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    pages,
    pageCount: pages.length,
    characters: pages.reduce((sum, page) => sum + page.text.length, 0),
    warnings: input.warnings ?? [],
    // Read before it is stored (an inline upload, a test) unless an upload job is to read it.
    status: input.status ?? 'ready',
    error: null,
    failureCode: null,
    createdAt: now,
  };
}

/** A new extraction starts in progress with no fields: the agent's tools write the rest. */
export function newDocumentExtractionRecord(
  tenantId: string,
  input: NewDocumentExtraction,
  now: string,
): DocumentExtraction {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    documentId: input.documentId,
    status: 'in_progress',
    documentType: null,
    fields: {},
    confidences: {},
    schema: input.schema ?? null,
    instructions: input.instructions ?? null,
    costMicroUsd: 0,
    tokens: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}
