// Where untrusted files and pages are parsed, behind a port: a file's bytes into Markdown (type
// detection, DOCX, PDF, OCR, CSV/JSON/YAML/XML) and a web page into its main content. That is
// CPU- and memory-heavy work on input anybody can send, so the server runs it in its worker pool
// (@tandem/parse-pool, which calls `readDocument` and `readMainContent` there); `inlineParsers`
// does it on the calling thread, for tests and benches. Both check the same input budgets.
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '@tandem/contracts';
import { extractMainContent, type MainContent } from '../content/main-content';
import { extractDocument } from '../extractors/extract';
import { inspectOfficeArchive } from '../extractors/office';
import type { ExtractedDocument } from '../extractors/types';
import { chunkForRetrieval, type RetrievalChunk } from './chunk';

export interface DocumentInput {
  /** Whose file it is: the server's pool shares its threads fairly between tenants. */
  tenantId?: string;
  bytes: Uint8Array;
  /**
   * The caller gives the bytes up: a parse pool may take their buffer to its thread instead of
   * copying it (22 MB copied on the request's thread cost 75 to 150 ms), which leaves them
   * empty here. Only for bytes nothing else holds, with their size read before.
   */
  handOver?: boolean;
  fileName: string;
  mimeType?: string;
}

export interface PageInput {
  /** Whose page it is (see DocumentInput). */
  tenantId?: string;
  html: string;
  url?: string;
  /** Keep content hidden by markup (default true; see MainContentOptions). */
  preserveHidden?: boolean;
}

/** A file read and already cut into retrieval chunks, where it was read. */
export interface DocumentForRetrieval extends ExtractedDocument {
  chunks: RetrievalChunk[];
}

export interface ContentParsers {
  /** The budgets its parsing checks. */
  readonly limits: InputLimits;
  /** A file's title, Markdown, pages and warnings (work cut at a budget says so there). */
  document(input: DocumentInput): Promise<ExtractedDocument>;
  /**
   * The same, cut into retrieval chunks in the same place: cutting 10 MB of text is 100 ms of
   * CPU that, done on the request's thread, every other request waited for.
   */
  documentForRetrieval(input: DocumentInput): Promise<DocumentForRetrieval>;
  /** A web page's main content, navigation and footers left out. */
  mainContent(input: PageInput): Promise<MainContent>;
  /** An office file checked against the ZIP budgets before a converter unpacks it. */
  inspectArchive(input: DocumentInput): Promise<void>;
}

/** A page's main content within the HTML budgets (size, depth, elements; 422 beyond them). */
export function readMainContent(input: PageInput, limits: InputLimits): MainContent {
  return extractMainContent(input.html, {
    limits,
    ...(input.url ? { url: input.url } : {}),
    ...(input.preserveHidden !== undefined ? { preserveHidden: input.preserveHidden } : {}),
  });
}

/**
 * A file read with the built-in extractors. Uploaded HTML is a web page too: its main content is
 * kept, not its navigation. Formats that need a service (office conversion, transcription) are
 * not read here: the ingestion calls those handlers itself.
 */
export function readDocument(
  input: DocumentInput,
  limits: InputLimits,
): Promise<ExtractedDocument> {
  return extractDocument(input.bytes, {
    fileName: input.fileName,
    ...(input.mimeType ? { mimeType: input.mimeType } : {}),
    limits,
    handlers: {
      html: (bytes) => {
        const main = readMainContent({ html: new TextDecoder().decode(bytes) }, limits);
        return {
          ...(main.title ? { title: main.title } : {}),
          markdown: main.markdown,
          warnings: [],
        };
      },
    },
  });
}

/** A document read, with its Markdown cut into retrieval chunks. */
export const withRetrievalChunks = (document: ExtractedDocument): DocumentForRetrieval => ({
  ...document,
  chunks: chunkForRetrieval(document.markdown),
});

/** A file read and cut into retrieval chunks. */
export async function readDocumentForRetrieval(
  input: DocumentInput,
  limits: InputLimits,
): Promise<DocumentForRetrieval> {
  return withRetrievalChunks(await readDocument(input, limits));
}

/** An office file (XLSX, PPTX, ODF are ZIPs) within the ZIP budgets, before conversion. */
export const inspectArchive = (input: DocumentInput, limits: InputLimits): Promise<void> =>
  inspectOfficeArchive(input.bytes, limits);

/** Parses on the calling thread: tests and benches (the server uses its worker pool). */
export function inlineParsers(limits: InputLimits = DEFAULT_INPUT_LIMITS): ContentParsers {
  return {
    limits,
    document: (input) => readDocument(input, limits),
    documentForRetrieval: (input) => readDocumentForRetrieval(input, limits),
    mainContent: async (input) => readMainContent(input, limits),
    inspectArchive: (input) => inspectArchive(input, limits),
  };
}
