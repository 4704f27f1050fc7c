/** One page of a paged source (PDF); numbers start at 1. */
export interface ExtractedPage {
  number: number;
  text: string;
}

/** What every extractor returns: Markdown is the one shape chunking reads. */
export interface ExtractedDocument {
  title: string;
  markdown: string;
  /** Only for sources that have pages, so citations can name one. */
  pages?: ExtractedPage[];
  mimeType: string;
  /** Things the reader should know (a charset guessed, rows cut) without failing the import. */
  warnings: string[];
}

export interface ExtractInput {
  fileName?: string;
  mimeType?: string;
  /** Whose file it is: handlers that hand work to the server's parse pool say so there. */
  tenantId?: string;
}

export type DocumentKind =
  | 'pdf'
  | 'docx'
  /** DOC, RTF, ODT, PPT(X), ODP, XLS(X), ODS…: no JS parser, converted by an injected service. */
  | 'office'
  | 'html'
  | 'markdown'
  | 'text'
  | 'json'
  | 'csv'
  | 'xml'
  | 'yaml'
  | 'image'
  | 'audio'
  | 'video';

export interface DetectedType {
  kind: DocumentKind;
  mimeType: string;
}

/** Raised for a type we recognise but cannot (or may not here) extract, and for unknown bytes. */
export class UnsupportedFormatError extends Error {
  constructor(readonly format: string) {
    super(`Unsupported document format: ${format}`);
    this.name = 'UnsupportedFormatError';
  }
}
