// Structure-aware chunking (docs/specs.md, "structure-aware chunking"): a 200-row HTML table served
// on loopback, turned into Markdown the way an extraction reads it and chunked: the first chunk
// holds complete rows only, and every chunk's table starts with the header row.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkMarkdownByStructure } from '@tandem/markdown';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseContent } from './content';
import { priceTableHtml } from './testing';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(priceTableHtml(200));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/).length;

it('chunks a 200-row table into complete rows, each chunk with the header', async () => {
  const content = parseContent({ html: await (await fetch(url)).text(), url });
  try {
    const chunks = chunkMarkdownByStructure(content.markdown, { maxChunkSize: 2_000 });
    expect(chunks.length).toBeGreaterThan(3);
    let rows = 0;
    for (const chunk of chunks) {
      const lines = chunk.content.split('\n').filter((line) => line.trim().startsWith('|'));
      expect(lines[0]).toBe('| SKU | Product | Price |');
      expect(lines[1]).toMatch(/^\| -+ \| -+ \| -+ \|$/);
      for (const line of lines) {
        expect(line.trim().endsWith('|')).toBe(true);
        expect(cellsOf(line)).toBe(3);
      }
      rows += lines.length - 2;
    }
    expect(rows).toBe(200);
    expect(chunks[0]?.structuralContext).toMatch(/rows 1-\d+ of 200/);
  } finally {
    content.release();
  }
});
