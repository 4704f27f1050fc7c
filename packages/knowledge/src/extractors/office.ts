import type { InputLimits } from '@tandem/contracts';
import type { FormatHandler, HandlerContext, HandlerResult } from './extract';
import { officeExtension } from './office-formats';
import { extractPdf } from './pdf';
import { ParseError } from './errors';
import { unzipWithinBudget } from './zip';

export interface GotenbergOptions {
  /** Base URL of the Gotenberg service, e.g. `http://gotenberg:3000` (GOTENBERG_URL). */
  url: string;
  /** Whole conversion (upload, LibreOffice, download); 60 s by default. */
  timeoutMs?: number;
  /** For tests and custom agents; the global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /**
   * Checks a ZIP-based office file against the ZIP budgets before it is sent (LibreOffice would
   * inflate a bomb just as mammoth would), and reads the PDF that comes back. Both are parsing
   * of untrusted bytes: the server runs them in its parse pool. In place by default.
   */
  inspectArchive?: (bytes: Uint8Array, context: HandlerContext) => Promise<void>;
  readPdf?: (pdf: Uint8Array, context: HandlerContext) => Promise<HandlerResult>;
}

/** The office file checked against the ZIP budgets where it is called. */
export async function inspectOfficeArchive(bytes: Uint8Array, limits: InputLimits): Promise<void> {
  if (isZip(bytes)) await unzipWithinBudget(bytes, limits, () => false, 'office document');
}

/**
 * An office document Gotenberg could not turn into a PDF. A ParseError, so callers that
 * already report unreadable files handle it; the message names the service by host only.
 */
export class OfficeConversionError extends ParseError {
  constructor(
    detail: string,
    /** The HTTP status Gotenberg answered with; undefined when it was not reached. */
    readonly status?: number,
  ) {
    super('office document', detail);
    this.name = 'OfficeConversionError';
    this.message = `Could not convert office document with Gotenberg: ${detail}`;
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;

const isZip = (bytes: Uint8Array): boolean =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const CONVERTED = 'Converted by Gotenberg (LibreOffice) to PDF before extraction.';

interface Endpoint {
  url: string;
  host: string;
  headers: Record<string, string>;
}

/**
 * Gotenberg's basic auth may be given as `http://user:pass@host`; fetch refuses URLs with
 * credentials, so they move to a header and never appear in messages.
 */
function endpoint(base: string): Endpoint {
  const url = new URL(base);
  const headers: Record<string, string> = {};
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const secret = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/forms/libreoffice/convert`;
  return { url: url.toString(), host: url.host, headers };
}

/**
 * LibreOffice picks its import filter by the extension, so the upload keeps the original name
 * when its extension fits the detected type and otherwise gets the detected type's extension.
 */
export function officeFileName(fileName: string | undefined, mimeType: string): string {
  const base =
    fileName
      ?.split(/[\\/]/)
      .pop()
      // Quotes and control characters would break the part's Content-Disposition header.
      ?.replace(/["\p{Cc}]/gu, '')
      .trim() || 'document';
  const extension = officeExtension(mimeType);
  if (!extension) return base;
  const current = /\.([^.]+)$/.exec(base)?.[1]?.toLowerCase();
  if (current === extension) return base;
  return `${base.replace(/\.[^.]*$/, '') || 'document'}.${extension}`;
}

async function errorDetail(response: Response): Promise<string> {
  const body = await response.text().catch(() => '');
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return snippet ? `${status}: ${snippet}` : status;
}

async function convertToPdf(
  bytes: Uint8Array,
  fileName: string,
  mimeType: string,
  options: GotenbergOptions,
): Promise<Uint8Array> {
  const target = endpoint(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const form = new FormData();
  form.append('files', new Blob([bytes.slice()], { type: mimeType }), fileName);
  let response: Response;
  try {
    response = await (options.fetch ?? globalThis.fetch)(target.url, {
      method: 'POST',
      body: form,
      headers: target.headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new OfficeConversionError(
        `Gotenberg at ${target.host} timed out after ${timeoutMs} ms`,
      );
    }
    throw new OfficeConversionError(`Gotenberg at ${target.host} is unreachable`);
  }
  if (!response.ok) {
    const detail = await errorDetail(response);
    throw new OfficeConversionError(
      `Gotenberg at ${target.host} answered ${detail}`,
      response.status,
    );
  }
  const pdf = new Uint8Array(await response.arrayBuffer());
  if (String.fromCharCode(...pdf.subarray(0, 5)) !== '%PDF-') {
    throw new OfficeConversionError(`Gotenberg at ${target.host} did not answer with a PDF`);
  }
  return pdf;
}

/**
 * The `office` handler: Gotenberg's LibreOffice route turns DOC, RTF, ODT, PPT(X), ODP, XLS(X)
 * and ODS into a PDF, which then goes through the PDF extractor (text layer per page, OCR for
 * pages without one), so citations name the page of the converted document.
 */
export function gotenbergHandler(options: GotenbergOptions): FormatHandler {
  endpoint(options.url); // an invalid URL fails at configuration, not at the first upload
  const inspect =
    options.inspectArchive ?? ((bytes, context) => inspectOfficeArchive(bytes, context.limits));
  const readPdf =
    options.readPdf ?? ((pdf, context) => extractPdf(pdf, { limits: context.limits }));
  return async (bytes, detected): Promise<HandlerResult> => {
    await inspect(bytes, detected);
    const fileName = officeFileName(detected.fileName, detected.mimeType);
    const pdf = await convertToPdf(bytes, fileName, detected.mimeType, options);
    const result = await readPdf(pdf, detected);
    return { ...result, warnings: [CONVERTED, ...result.warnings] };
  };
}
