import { DEFAULT_INPUT_LIMITS, InputTooComplexError } from '@tandem/contracts';
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument, type FormatHandler } from './extract';
import { isAllowedError, mutate, mutations } from './mutations';
import { storedZip } from './zip';
import { refusal } from './hostile-fixtures';

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);

const throwing =
  (error: unknown): FormatHandler =>
  () => {
    throw error;
  };

describe('extractDocument: a handler failure becomes an error the server answers 4xx', () => {
  it('turns a library error into a plain ParseError that names no internals', async () => {
    const error = await refusal(
      extractDocument(utf8('<html></html>'), {
        handlers: {
          html: throwing(new TypeError("Cannot read 'x' of /srv/app/node_modules/y.js")),
        },
      }),
    );
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse HTML: the file is damaged or is not a valid HTML file.',
    );
  });

  it('turns a stack overflow into InputTooComplexError naming nesting', async () => {
    const error = await refusal(
      extractDocument(utf8('<html></html>'), {
        handlers: { html: throwing(new RangeError('Maximum call stack size exceeded')) },
      }),
    );
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect((error as InputTooComplexError).limit).toBe('structuredMaxDepth');
    expect(error.message).toBe(
      'The HTML file nests too deeply to be read; the limit is 64 levels (STRUCTURED_MAX_DEPTH).',
    );
  });

  it('passes the allowed errors through unchanged, and the limits to the handler', async () => {
    const limits = { ...DEFAULT_INPUT_LIMITS, htmlMaxMb: 1 };
    let seen: unknown;
    const over = new InputTooComplexError('htmlMaxMb', 'The page is 2 MB; the limit is 1 MB.');
    const error = await refusal(
      extractDocument(utf8('<html></html>'), {
        limits,
        handlers: {
          html: (_bytes, context) => {
            seen = context.limits;
            throw over;
          },
        },
      }),
    );
    expect(error).toBe(over);
    expect(seen).toBe(limits);
  });
});

async function sampleDocx(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph('Discharge summary'),
          new Table({ rows: [new TableRow({ children: [cell('Drug'), cell('Dose')] })] }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

async function samplePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([300, 200]).drawText('Referral letter, page one.', { x: 20, y: 150, size: 12, font });
  pdf.addPage([300, 200]);
  return pdf.save({ useObjectStreams: false });
}

/** OCR is left to the integration property; here a PDF's pages are read as text only. */
const NO_OCR = { ...DEFAULT_INPUT_LIMITS, pdfMaxOcrPages: 0 };

const SEED = 20_270_127;

describe('extractDocument: damaged files fail only with the allowed errors (seeded property)', () => {
  const samples: Record<string, { bytes: Uint8Array; fileName: string }> = {};

  beforeAll(async () => {
    const docx = await sampleDocx();
    samples.docx = { bytes: docx, fileName: 'summary.docx' };
    // Stored, so most damage lands in XML that mammoth parses rather than in deflate streams.
    const parts = Object.entries(unzipSync(docx)).map(([name, data]) => ({ name, data }));
    samples['docx (stored)'] = { bytes: storedZip(parts), fileName: 'summary.docx' };
    samples.pdf = { bytes: await samplePdf(), fileName: 'letter.pdf' };
    samples.csv = {
      bytes: utf8('name;note\nAda;"a | pipe"\nBob;"two\nlines"\n'),
      fileName: 'p.csv',
    };
    samples.json = {
      bytes: utf8(JSON.stringify({ name: 'Ada', visits: [{ date: '2024-01-02', notes: [1, 2] }] })),
      fileName: 'p.json',
    };
    samples.xml = {
      bytes: utf8('<?xml version="1.0"?><patient id="7"><name>Ada</name><v><d>1</d></v></patient>'),
      fileName: 'p.xml',
    };
    samples.yaml = {
      bytes: utf8('title: Form\nbase: &b {a: 1}\nfields:\n  - *b\n  - [1, 2]\n---\nx: true\n'),
      fileName: 'p.yaml',
    };
  });

  it.each(['docx', 'docx (stored)', 'pdf', 'csv', 'json', 'xml', 'yaml'])(
    '%s',
    { timeout: 120_000 },
    async (format) => {
      await fc.assert(
        fc.asyncProperty(mutations(), async (steps) => {
          const sample = samples[format];
          if (!sample) throw new Error(`no sample for ${format}`);
          const bytes = mutate(sample.bytes, steps);
          try {
            await extractDocument(bytes, { fileName: sample.fileName, limits: NO_OCR });
          } catch (error) {
            if (!isAllowedError(error)) throw error;
          }
        }),
        { seed: SEED, numRuns: format === 'pdf' || format.startsWith('docx') ? 60 : 150 },
      );
    },
  );
});
