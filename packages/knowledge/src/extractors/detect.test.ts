import { describe, expect, it } from 'vitest';
import { detectType } from './detect';
import { UnsupportedFormatError } from './types';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('detectType', () => {
  it('recognises binary containers by their magic numbers, whatever is declared', () => {
    const octet = { mimeType: 'application/octet-stream', fileName: 'upload.bin' };
    expect(detectType(text('%PDF-1.7\n'), octet)).toEqual({
      kind: 'pdf',
      mimeType: 'application/pdf',
    });
    expect(
      detectType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), octet).mimeType,
    ).toBe('image/png');
    expect(detectType(bytes(0xff, 0xd8, 0xff, 0xe0), octet).mimeType).toBe('image/jpeg');
    expect(detectType(text('GIF89a'), octet).mimeType).toBe('image/gif');
    expect(detectType(text('RIFF\0\0\0\0WEBPVP8 '), octet)).toEqual({
      kind: 'image',
      mimeType: 'image/webp',
    });
    expect(detectType(text('RIFF\0\0\0\0WAVEfmt '), octet).kind).toBe('audio');
    expect(detectType(text('ID3\u0004\0\0'), octet).mimeType).toBe('audio/mpeg');
    expect(detectType(text('OggS\0'), octet).kind).toBe('audio');
    expect(detectType(text('\0\0\0\u0018ftypisom'), octet)).toEqual({
      kind: 'video',
      mimeType: 'video/mp4',
    });
    expect(detectType(text('\0\0\0\u0018ftypM4A '), octet).kind).toBe('audio');
    expect(detectType(bytes(0x1a, 0x45, 0xdf, 0xa3, 0), octet).kind).toBe('video');
  });

  it('tells a Word document from another ZIP by its content types part', () => {
    const zip = (names: string) => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...text(names)]);
    expect(detectType(zip('[Content_Types].xml ... word/document.xml')).kind).toBe('docx');
    expect(() => detectType(zip('data/readme.txt'))).toThrow(UnsupportedFormatError);
    expect(() => detectType(zip('data/readme.txt'))).toThrow(/zip archive/);
  });

  it('uses the declared MIME type, then the file name, for text formats', () => {
    const body = text('a,b\n1,2\n');
    expect(detectType(body, { mimeType: 'text/csv; charset=utf-8' })).toEqual({
      kind: 'csv',
      mimeType: 'text/csv',
    });
    expect(detectType(body, { fileName: 'rows.CSV' }).kind).toBe('csv');
    expect(detectType(body, { mimeType: 'application/ld+json' }).kind).toBe('json');
    expect(detectType(body, { fileName: 'conf.yml' }).kind).toBe('yaml');
    expect(detectType(body, { fileName: 'notes.md' }).kind).toBe('markdown');
    expect(detectType(body, { fileName: 'page.html' }).kind).toBe('html');
  });

  it('sniffs undeclared text for HTML and XML, else plain text', () => {
    expect(detectType(text('<!DOCTYPE html><html></html>')).kind).toBe('html');
    expect(detectType(text('\uFEFF<?xml version="1.0"?><a/>')).kind).toBe('xml');
    expect(detectType(text('just words')).kind).toBe('text');
    expect(detectType(bytes(0xff, 0xfe, 0x68, 0)).kind).toBe('text');
  });

  it('names the type in the error for unknown binary data', () => {
    const error = (() => {
      try {
        detectType(bytes(0, 1, 2, 3), { mimeType: 'application/x-sqlite3' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedFormatError);
    expect((error as UnsupportedFormatError).format).toBe('application/x-sqlite3');
    expect((error as Error).message).toContain('application/x-sqlite3');
  });
});
