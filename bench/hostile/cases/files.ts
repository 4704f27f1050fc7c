// The hostile files (those that froze the server before, and what the fuzz found): archives, PDFs,
// images, structured data, big text.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { IngestResponse, UploadDocumentResponse } from '@tandem/contracts';
import { SERVER_DIR } from '../../tasks/harness/server';
import { bombDocx, DOCX_TYPE, lyingDocx, proseDocx, zipSlipDocx } from '../inputs/docx';
import { corruptPng, gifBomb, pngBomb } from '../inputs/images';
import { blankPagesPdf, hugePagePdf, javascriptPdf, truncatedPdf } from '../inputs/pdf';
import {
  billionLaughs,
  nestedJson,
  ordersCsv,
  singleLine,
  wideCsv,
  XXE,
  yamlAliasBomb,
} from '../inputs/text';
import type { HostileStack } from '../stack';
import { anyRefusal, either, malformed, processed, tooComplex, type Expectation } from '../verdict';
import { fileRequest, ROUTE_LABEL, type HostileFile, type Route } from './routes';
import { single, type HostileCase } from './types';

interface FileCase {
  name: string;
  what: string;
  quick: boolean;
  routes: Route[];
  file(): Promise<HostileFile> | HostileFile;
  expectation: Expectation;
  after?(stack: HostileStack): string[];
}

const text = (fileName: string, contentType: string, data: string | Buffer): HostileFile => ({
  fileName,
  contentType,
  data: typeof data === 'string' ? Buffer.from(data) : data,
});

const docx = async (fileName: string, data: Promise<Buffer>): Promise<HostileFile> => ({
  fileName,
  contentType: DOCX_TYPE,
  data: await data,
});

const pdf = async (fileName: string, data: Promise<Uint8Array>): Promise<HostileFile> => ({
  fileName,
  contentType: 'application/pdf',
  data: await data,
});

/** Whichever route answered: both upload responses are checked against their own schema. */
const uploaded = (budgetMs: number, warnings: string[] = []) =>
  processed(`2xx${warnings.length ? ` + ${warnings.join(', ')} warning` : ''}`, {
    budgetMs,
    warnings,
    check: (body) =>
      UploadDocumentResponse.safeParse(body).success || IngestResponse.safeParse(body).success
        ? []
        : ['body is neither an upload nor an ingest response'],
  });

const ZIP_SETTINGS = ['ZIP_MAX_UNCOMPRESSED_MB', 'ZIP_MAX_RATIO'];
const POOL_SETTINGS = ['PARSE_TIMEOUT_SECONDS', 'PARSE_WORKER_HEAP_MB'];

/** Where a zip-slip entry would land if an archive were extracted to disk. */
const SLIP_TARGETS = (stack: HostileStack) => [
  path.resolve(SERVER_DIR, '../evil.xml'),
  path.resolve(SERVER_DIR, '../../evil.xml'),
  path.resolve(stack.dataDir, '../evil.xml'),
  path.resolve(stack.dataDir, '../../evil.xml'),
];

const ARCHIVES: FileCase[] = [
  {
    name: 'docx-61mb-xml',
    what: 'DOCX of varied prose unpacking to 61 MB of XML (~6× compression: within the ZIP budgets, past DOCX_MAX_XML_MB)',
    quick: false,
    routes: ['documents'],
    file: () => docx('report-61mb.docx', proseDocx(61)),
    expectation: either(
      '2xx in 60 s, or 422',
      uploaded(60_000),
      tooComplex('DOCX_MAX_XML_MB', ...ZIP_SETTINGS, ...POOL_SETTINGS),
    ),
  },
  {
    name: 'docx-bomb-1gib',
    what: 'DOCX whose document.xml inflates to 1 GiB (2.6 MB packed: 400×)',
    quick: false,
    routes: ['documents', 'ingest'],
    file: () => docx('bomb-1gib.docx', bombDocx(1024)),
    expectation: tooComplex(...ZIP_SETTINGS),
  },
  {
    name: 'docx-bomb-200mb',
    what: 'DOCX inflating to 200 MB (the quick zip bomb)',
    quick: true,
    routes: ['documents'],
    file: () => docx('bomb-200mb.docx', bombDocx(200)),
    expectation: tooComplex(...ZIP_SETTINGS),
  },
  {
    name: 'docx-lying-sizes',
    what: 'DOCX whose headers say document.xml is 1 KB (wrong CRC too); it inflates to 200 MB',
    quick: false,
    routes: ['documents'],
    file: () => docx('lying.docx', lyingDocx(200)),
    expectation: either('400 or 422', tooComplex(...ZIP_SETTINGS), malformed()),
  },
  {
    name: 'docx-zip-slip',
    what: 'valid DOCX with entries named ../../evil.xml, word/../../../evil.xml, /tmp/evil.xml',
    quick: true,
    routes: ['documents'],
    file: () => docx('slip.docx', zipSlipDocx()),
    expectation: either('2xx or 4xx, nothing written', uploaded(10_000), anyRefusal()),
    after: (stack) =>
      SLIP_TARGETS(stack)
        .filter((target) => existsSync(target))
        .map((target) => `${target} was written`),
  },
];

const PDFS_AND_IMAGES: FileCase[] = [
  {
    name: 'pdf-20-blank-pages',
    what: '20 blank letter pages: every one rendered and read by OCR (PDF_MAX_OCR_PAGES is 20)',
    quick: false,
    routes: ['documents'],
    file: () => pdf('blank-20.pdf', blankPagesPdf(20)),
    expectation: uploaded(75_000),
  },
  {
    name: 'pdf-5000pt-page',
    what: 'one blank 5000 × 5000 pt page (25 Mpx at 72 dpi, over PDF_MAX_PAGE_PIXELS)',
    quick: false,
    routes: ['documents'],
    file: () => pdf('huge-page.pdf', hugePagePdf(5000)),
    expectation: uploaded(60_000, ['PDF_MAX_PAGE_PIXELS']),
  },
  {
    name: 'pdf-javascript',
    what: 'a text PDF with a JavaScript OpenAction (alert, submitForm to loopback)',
    quick: true,
    routes: ['documents'],
    file: () => pdf('open-action.pdf', javascriptPdf()),
    expectation: either('2xx or 4xx', uploaded(10_000), anyRefusal()),
  },
  {
    name: 'pdf-truncated',
    what: 'a text PDF cut after 30 % of its bytes (no xref, no pages)',
    quick: true,
    routes: ['documents', 'ingest', 'inline'],
    file: () => pdf('truncated.pdf', truncatedPdf(0.3)),
    expectation: malformed(),
  },
  {
    name: 'png-corrupt-16b',
    what: 'the PNG signature and 8 bytes: 16 bytes in all',
    quick: true,
    routes: ['documents', 'ingest', 'inline'],
    file: () => ({ fileName: 'corrupt.png', contentType: 'image/png', data: corruptPng() }),
    expectation: malformed(),
  },
  {
    name: 'png-bomb',
    what: 'PNG whose IHDR declares 100000 × 100000 RGB (30 GB of pixels), 64 KB IDAT',
    quick: true,
    routes: ['documents', 'inline'],
    file: () => ({ fileName: 'bomb.png', contentType: 'image/png', data: pngBomb(1e5, 1e5) }),
    expectation: tooComplex('IMAGE_MAX_PIXELS'),
  },
  {
    name: 'gif-bomb',
    what: 'GIF with a 65535 × 65535 logical screen and frame',
    quick: true,
    routes: ['documents'],
    file: () => ({ fileName: 'bomb.gif', contentType: 'image/gif', data: gifBomb() }),
    expectation: tooComplex('IMAGE_MAX_PIXELS'),
  },
];

const STRUCTURED: FileCase[] = [
  {
    name: 'xml-xxe',
    what: 'XML with an external entity on file:///etc/passwd',
    quick: true,
    routes: ['ingest'],
    file: () => text('xxe.xml', 'application/xml', XXE),
    expectation: anyRefusal('any 4xx (400 or 422)'),
  },
  {
    name: 'xml-billion-laughs',
    what: '10 levels of 10 entity references (10^9 "lol"s from 1 KB)',
    quick: true,
    routes: ['ingest'],
    file: () => text('lolz.xml', 'application/xml', billionLaughs()),
    expectation: anyRefusal('any 4xx (400 or 422)'),
  },
  {
    name: 'yaml-alias-bomb',
    what: '9 levels of 9 YAML aliases (387 million strings once expanded)',
    quick: true,
    routes: ['ingest'],
    file: () => text('aliases.yaml', 'application/yaml', yamlAliasBomb()),
    expectation: anyRefusal('any 4xx (422 STRUCTURED_MAX_NODES)'),
  },
  {
    name: 'json-nested-100k',
    what: 'JSON arrays nested 100,000 levels',
    quick: true,
    routes: ['ingest'],
    file: () => text('deep.json', 'application/json', nestedJson(100_000)),
    expectation: tooComplex('STRUCTURED_MAX_DEPTH'),
  },
  {
    name: 'csv-1m-lines',
    what: '1,000,001-line CSV of orders (22.7 MB): cut at CSV_MAX_ROWS with a warning',
    quick: false,
    routes: ['documents'],
    file: () => text('orders.csv', 'text/csv', ordersCsv(1_000_000)),
    expectation: uploaded(60_000, ['CSV_MAX_ROWS']),
  },
  {
    name: 'csv-100k-columns',
    what: 'CSV with 100,000 columns',
    quick: true,
    routes: ['documents'],
    file: () => text('wide.csv', 'text/csv', wideCsv(100_000)),
    expectation: tooComplex('CSV_MAX_COLUMNS'),
  },
  {
    name: 'text-10mb-line',
    what: '10 MB of words on a single line',
    quick: false,
    routes: ['ingest'],
    file: () => text('one-line.txt', 'text/plain', singleLine(10)),
    expectation: uploaded(60_000),
  },
];

function toCases(spec: FileCase): HostileCase[] {
  // Built once for all its routes (a 1 GiB bomb takes seconds to deflate).
  let built: Promise<HostileFile> | undefined;
  const file = () => (built ??= Promise.resolve(spec.file()));
  return spec.routes.map((route) =>
    single({
      name: spec.routes.length > 1 ? `${spec.name}@${route}` : spec.name,
      what: spec.what,
      route: ROUTE_LABEL[route],
      quick: spec.quick,
      // An inline upload answers an event stream when a run starts.
      stream: route === 'inline',
      expectation: spec.expectation,
      build: async (stack) => fileRequest(stack, route, await file()),
      ...(spec.after ? { after: spec.after } : {}),
    }),
  );
}

export const FILE_CASES: HostileCase[] = [...ARCHIVES, ...PDFS_AND_IMAGES, ...STRUCTURED].flatMap(
  toCases,
);
