import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from './extract';
import { gotenbergHandler, OfficeConversionError } from './office';
import { UnsupportedFormatError } from './types';

/** What the fake Gotenberg saw of the last conversion request. */
interface Received {
  path: string;
  contentType: string;
  authorization?: string;
  fileName?: string;
  fileType?: string;
  fileBytes?: number;
}

async function buildPdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([400, 300]);
  lines.forEach((line, index) =>
    page.drawText(line, { x: 40, y: 250 - index * 20, size: 12, font }),
  );
  return pdf.save();
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/**
 * Gotenberg is an external Docker service that cannot run here, so a real HTTP server plays
 * its LibreOffice route: it parses the multipart upload like Gotenberg does and answers a PDF.
 */
function fakeGotenberg(pdf: Uint8Array, received: Received[]) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const contentType = request.headers['content-type'] ?? '';
    const entry: Received = { path: request.url ?? '', contentType };
    if (request.headers.authorization) entry.authorization = request.headers.authorization;
    received.push(entry);
    if (request.url === '/down/forms/libreoffice/convert') {
      response.writeHead(503, 'Service Unavailable').end('LibreOffice is restarting');
      return;
    }
    if (request.url === '/slow/forms/libreoffice/convert') {
      setTimeout(() => response.writeHead(200).end(), 2_000);
      return;
    }
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': contentType },
    }).formData();
    const file = form.get('files');
    if (request.method !== 'POST' || !(file instanceof File)) {
      response.writeHead(400).end("form field 'files' is required");
      return;
    }
    Object.assign(entry, { fileName: file.name, fileType: file.type, fileBytes: file.size });
    response.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf));
  };
}

const RTF = new TextEncoder().encode('{\\rtf1\\ansi Board minutes: the budget was approved.}');
const OLE2_DOC = new Uint8Array([
  0xd0,
  0xcf,
  0x11,
  0xe0,
  0xa1,
  0xb1,
  0x1a,
  0xe1,
  ...new Uint8Array(504),
  ...Buffer.from('WordDocument\0', 'utf16le'),
]);

describe('extractDocument: office formats through Gotenberg', () => {
  const received: Received[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const pdf = await buildPdf(['Board minutes', 'The budget was approved.']);
    server = createServer((request, response) => {
      void fakeGotenberg(pdf, received)(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('uploads the file under its name and extracts the PDF Gotenberg returns', async () => {
    received.length = 0;
    const result = await extractDocument(RTF, {
      fileName: 'minutes.rtf',
      handlers: { office: gotenbergHandler({ url: `${base}/` }) },
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe('/forms/libreoffice/convert');
    expect(received[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]?.fileName).toBe('minutes.rtf');
    expect(received[0]?.fileType).toBe('application/rtf');
    expect(received[0]?.fileBytes).toBe(RTF.length);
    expect(result.mimeType).toBe('application/rtf');
    expect(result.title).toBe('minutes');
    expect(result.markdown).toContain('Board minutes');
    expect(result.markdown).toContain('The budget was approved.');
    expect(result.pages).toHaveLength(1);
    expect(result.pages?.[0]?.text).toContain('The budget was approved.');
    expect(result.warnings).toEqual([
      'Converted by Gotenberg (LibreOffice) to PDF before extraction.',
    ]);
  });

  it('names the upload by the detected type when its extension does not fit', async () => {
    received.length = 0;
    await extractDocument(OLE2_DOC, {
      fileName: 'C:\\uploads\\letter.bin',
      mimeType: 'application/octet-stream',
      handlers: { office: gotenbergHandler({ url: base }) },
    });
    expect(received[0]?.fileName).toBe('letter.doc');
    expect(received[0]?.fileType).toBe('application/msword');
  });

  it('reports a non-2xx answer with its status, and keeps URL credentials out of it', async () => {
    received.length = 0;
    const url = base.replace('http://', 'http://tandem:s3cret@') + '/down';
    const failure = extractDocument(RTF, {
      fileName: 'minutes.rtf',
      handlers: { office: gotenbergHandler({ url }) },
    }).catch((error: unknown) => error);
    const error = (await failure) as OfficeConversionError;
    expect(error).toBeInstanceOf(OfficeConversionError);
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      `Could not convert office document with Gotenberg: Gotenberg at ${base.slice(7)} answered 503 Service Unavailable: LibreOffice is restarting`,
    );
    expect(error.message).not.toContain('s3cret');
    expect(received[0]?.authorization).toBe(
      `Basic ${Buffer.from('tandem:s3cret').toString('base64')}`,
    );
  });

  it('says when Gotenberg is unreachable or too slow', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const options = (url: string, timeoutMs?: number) => ({
      fileName: 'minutes.rtf',
      handlers: { office: gotenbergHandler({ url, ...(timeoutMs ? { timeoutMs } : {}) }) },
    });
    await expect(extractDocument(RTF, options(`http://127.0.0.1:${port}`))).rejects.toThrow(
      `Gotenberg at 127.0.0.1:${port} is unreachable`,
    );
    await expect(extractDocument(RTF, options(`${base}/slow`, 200))).rejects.toThrow(
      /timed out after 200 ms/,
    );
  });

  it('fails with an UnsupportedFormatError that says how to enable conversion', async () => {
    const failure = extractDocument(OLE2_DOC, { fileName: 'letter.doc' });
    await expect(failure).rejects.toBeInstanceOf(UnsupportedFormatError);
    await expect(failure).rejects.toThrow(
      'application/msword (office): set GOTENBERG_URL to a Gotenberg service (docker compose --profile office up)',
    );
  });
});
