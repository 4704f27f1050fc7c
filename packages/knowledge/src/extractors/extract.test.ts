import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract';
import { UnsupportedFormatError } from './types';

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('extractDocument: text formats', () => {
  it('keeps Markdown as written, with LF line endings and its H1 as the title', async () => {
    const result = await extractDocument(
      utf8('\uFEFF# Intake form\r\n\r\n\r\n\r\nFill in *all* fields.  \r\n'),
      {
        fileName: 'intake.md',
      },
    );
    expect(result).toEqual({
      title: 'Intake form',
      markdown: '# Intake form\n\nFill in *all* fields.',
      mimeType: 'text/markdown',
      warnings: [],
    });
  });

  it('reads text with a UTF-16 byte order mark', async () => {
    const body = Buffer.from('\uFEFFCafé notes\r\nline two', 'utf16le');
    const result = await extractDocument(new Uint8Array(body), { fileName: 'notes.txt' });
    expect(result.markdown).toBe('Café notes\nline two');
    expect(result.title).toBe('notes');
  });

  it('falls back to windows-1252 for invalid UTF-8 and says so', async () => {
    const result = await extractDocument(
      new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]),
      {
        mimeType: 'text/plain',
      },
    );
    expect(result.markdown).toBe('Café €5');
    expect(result.warnings).toEqual(['Not valid UTF-8: read as windows-1252.']);
    expect(result.title).toBe('Untitled');
  });

  it('turns a JSON object into one section per top-level key', async () => {
    const json = JSON.stringify({ name: 'Ada', address: { city: 'London' }, tags: ['a'] });
    const result = await extractDocument(utf8(json), { fileName: 'patient.json' });
    expect(result.markdown).toBe(
      '## name\n\nAda\n\n## address\n\n```json\n{\n  "city": "London"\n}\n```\n\n## tags\n\n```json\n[\n  "a"\n]\n```',
    );
  });

  it('reports invalid JSON as a parse error', async () => {
    await expect(extractDocument(utf8('{"a":'), { fileName: 'bad.json' })).rejects.toThrow(
      /Could not parse JSON/,
    );
  });

  it('turns CSV into a GFM table, guessing the delimiter and escaping pipes', async () => {
    const csv = 'name;note\nAda;"uses a | pipe"\nBob;"two\nlines"\n';
    const result = await extractDocument(utf8(csv), { mimeType: 'text/csv' });
    expect(result.markdown).toBe(
      '| name | note |\n| --- | --- |\n| Ada | uses a \\| pipe |\n| Bob | two<br>lines |',
    );
    expect(result.warnings).toEqual([]);
  });

  it('pads ragged CSV rows and warns', async () => {
    const result = await extractDocument(utf8('a,b,c\n1,2\n'), { fileName: 'r.csv' });
    expect(result.markdown).toBe('| a | b | c |\n| --- | --- | --- |\n| 1 | 2 |  |');
    expect(result.warnings).toEqual(['Rows have different numbers of columns.']);
  });

  it('renders XML under its root element, attributes included', async () => {
    const xml =
      '<?xml version="1.0"?><patient id="7"><name>Ada</name><visit><date>2024-01-02</date></visit></patient>';
    const result = await extractDocument(utf8(xml));
    expect(result.mimeType).toBe('application/xml');
    expect(result.title).toBe('patient');
    expect(result.markdown).toContain('## name\n\nAda');
    expect(result.markdown).toContain('## visit\n\n```yaml\ndate: 2024-01-02\n```');
    expect(result.markdown).toContain('## @id\n\n7');
  });

  it('rejects malformed XML with the parser message', async () => {
    await expect(extractDocument(utf8('<a><b></a>'), { fileName: 'x.xml' })).rejects.toThrow(
      /Could not parse XML/,
    );
  });

  it('renders each YAML document, keys as headings', async () => {
    const yaml = 'title: Form\nfields:\n  - name\n  - dob\n---\nsecond: true\n';
    const result = await extractDocument(utf8(yaml), { fileName: 'form.yaml' });
    expect(result.markdown).toBe(
      '## title\n\nForm\n\n## fields\n\n```yaml\n- name\n- dob\n```\n\n---\n\n## second\n\ntrue',
    );
    await expect(extractDocument(utf8('a: [1,'), { fileName: 'bad.yml' })).rejects.toThrow(
      /Could not parse YAML/,
    );
  });
});

describe('extractDocument: formats handled elsewhere', () => {
  it('sends HTML to the injected main-content handler', async () => {
    const result = await extractDocument(utf8('<!doctype html><title>T</title>'), {
      handlers: {
        html: (bytes, detected) => ({
          markdown: `html ${bytes.length} ${detected.mimeType}`,
          warnings: [],
        }),
      },
    });
    expect(result.markdown).toBe('html 31 text/html');
  });

  it('fails clearly for HTML and audio without a handler', async () => {
    await expect(extractDocument(utf8('<html></html>'))).rejects.toThrow(/main-content extractor/);
    const mp3 = utf8('ID3\u0004\0\0');
    await expect(extractDocument(mp3)).rejects.toBeInstanceOf(UnsupportedFormatError);
    await expect(extractDocument(mp3)).rejects.toThrow(
      /audio\/mpeg \(audio\): the configured model has no transcription/,
    );
  });
});
