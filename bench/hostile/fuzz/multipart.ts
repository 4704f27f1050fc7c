// Multipart bodies for the upload routes: random files (bytes behind the magic numbers of every
// type the readers detect, text in every text format, hostile names) with valid or mutated form
// fields, and broken forms (no file, two files, a wrong or missing boundary, a cut body).
import fc from 'fast-check';
import { multipart } from '../http';
import { oddUnicode } from './bodies';

export interface MultipartPlan {
  kind: string;
  fields: [string, string][];
  files: { field: string; fileName: string; contentType: string; data: number[] }[];
  /** How the envelope is broken, if it is. */
  frame: 'ok' | 'wrong-boundary' | 'no-boundary' | 'cut' | 'no-close';
}

const MAGIC: Record<string, number[]> = {
  pdf: [...Buffer.from('%PDF-1.7\n')],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  gif: [...Buffer.from('GIF89a')],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  zip: [0x50, 0x4b, 0x03, 0x04],
  docx: [
    ...Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000\u0008\u0000[Content_Types].xmlword/'),
  ],
  ole: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  rtf: [...Buffer.from('{\\rtf1 ')],
  webp: [...Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBP')],
  mp4: [0, 0, 0, 0x18, ...Buffer.from('ftypmp42')],
  none: [],
};

const TEXT_FILES: [string, string, fc.Arbitrary<string>][] = [
  ['md', 'text/markdown', fc.string({ maxLength: 400 }).map((s) => `# Title\n\n${s}`)],
  [
    'csv',
    'text/csv',
    fc
      .array(fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }), { maxLength: 6 })
      .map((rows) => rows.map((r) => r.join(',')).join('\n')),
  ],
  ['json', 'application/json', fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v))],
  [
    'xml',
    'application/xml',
    fc.string({ maxLength: 200 }).map((s) => `<?xml version="1.0"?><r a="1">${s}</r>`),
  ],
  [
    'yaml',
    'application/yaml',
    fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 })).map((d) =>
      Object.entries(d)
        .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
        .join('\n'),
    ),
  ],
  ['txt', 'text/plain', fc.string({ maxLength: 400, unit: 'binary' })],
  [
    'html',
    'text/html',
    fc.string({ maxLength: 200 }).map((s) => `<html><body><p>${s}</p></body></html>`),
  ],
];

const fileName = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.stringMatching(/^[a-z]{1,12}$/),
        fc.constantFrom(
          'pdf',
          'png',
          'docx',
          'txt',
          'csv',
          'json',
          'xml',
          'yaml',
          'md',
          'gif',
          'jpg',
          'html',
          'exe',
          '',
        ),
      )
      .map(([n, e]) => (e ? `${n}.${e}` : n)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '../../etc/passwd',
      '..\\..\\boot.ini',
      '',
      '.',
      'a'.repeat(1000),
      'x".pdf',
      'nul\u0000.pdf',
      'cr\r\nX-Evil: 1.txt',
      '%2e%2e%2fa.txt',
    ),
  },
  { weight: 1, arbitrary: oddUnicode.map((s) => `${s}.txt`) },
);

const contentType = fc.constantFrom(
  'application/pdf',
  'image/png',
  'image/gif',
  'text/plain',
  'text/csv',
  'application/json',
  'application/octet-stream',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/x-msdownload',
  '',
  'text/html; charset=utf-7',
);

const binaryFile = fc
  .tuple(
    fc.constantFrom(...Object.keys(MAGIC)),
    fc.uint8Array({ maxLength: 2048 }),
    fileName,
    contentType,
  )
  .map(([magic, tail, name, type]) => ({
    field: 'file',
    fileName: name,
    contentType: type,
    data: [...(MAGIC[magic] ?? []), ...tail],
  }));

const textFile = fc
  .tuple(fc.constantFrom(...TEXT_FILES), fc.boolean())
  .chain(([[ext, type, content], honestName]) => {
    return fc
      .tuple(content, honestName ? fc.constant(`doc.${ext}`) : fileName)
      .map(([text, name]) => ({
        field: 'file',
        fileName: name,
        contentType: type,
        data: [...Buffer.from(text)],
      }));
  });

/** Plans for a route whose text fields are `fields` (valid values from the form schema). */
export function multipartPlans(fields: fc.Arbitrary<unknown>): fc.Arbitrary<MultipartPlan> {
  const asPairs = (v: unknown): [string, string][] =>
    Object.entries(typeof v === 'object' && v !== null ? v : {}).map(([k, x]) => [k, String(x)]);
  const file = fc.oneof(binaryFile, textFile);
  const plan =
    (kind: string, frame: MultipartPlan['frame'] = 'ok') =>
    (f: MultipartPlan['files'], p: [string, string][]) => ({
      kind: `multipart:${kind}`,
      fields: p,
      files: f,
      frame,
    });
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(file, fields).map(([f, v]) => plan('file')([f], asPairs(v))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          file,
          fc.dictionary(
            fc.constantFrom('domain', 'title', 'sourceUrl', 'extra'),
            fc.oneof(oddUnicode, fc.constant('x'.repeat(100_000)), fc.constant('')),
          ),
        )
        .map(([f, v]) => plan('bad-fields')([f], asPairs(v))),
    },
    { weight: 1, arbitrary: fields.map((v) => plan('no-file')([], asPairs(v))) },
    { weight: 1, arbitrary: fc.tuple(file, file).map(([a, b]) => plan('two-files')([a, b], [])) },
    {
      weight: 1,
      arbitrary: file.map((f) => plan('file-as-other-field')([{ ...f, field: 'document' }], [])),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          file,
          fc.constantFrom<MultipartPlan['frame']>(
            'wrong-boundary',
            'no-boundary',
            'cut',
            'no-close',
          ),
        )
        .map(([f, frame]) => plan(`frame(${frame})`, frame)([f], [])),
    },
  );
}

/** The body and content type of a plan. */
export function renderMultipart(plan: MultipartPlan): { body: Buffer; contentType: string } {
  const boundary = 'fuzz-boundary-27';
  const form = multipart(
    Object.fromEntries(plan.fields),
    plan.files.map((f) => ({
      name: f.field,
      fileName: f.fileName,
      contentType: f.contentType,
      data: Uint8Array.from(f.data),
    })),
    boundary,
  );
  switch (plan.frame) {
    case 'wrong-boundary':
      return { body: form.body, contentType: 'multipart/form-data; boundary=not-the-boundary' };
    case 'no-boundary':
      return { body: form.body, contentType: 'multipart/form-data' };
    case 'cut':
      return {
        body: form.body.subarray(0, Math.floor(form.body.length / 2)),
        contentType: form.contentType,
      };
    case 'no-close':
      return {
        body: form.body.subarray(0, form.body.length - `--${boundary}--\r\n`.length),
        contentType: form.contentType,
      };
    default:
      return form;
  }
}
