import { describe, expect, it } from 'vitest';
import { chunkForRetrieval, splitSections } from './chunk';

describe('splitSections', () => {
  it('keeps the path of headings above each section and ignores # inside fences', () => {
    const md = [
      '# Webhooks',
      'Intro text.',
      '## Signatures',
      'Signed with HMAC-SHA256.',
      '```sh',
      '# not a heading',
      '```',
      '## Retries',
      'Retried 5 times.',
      '# Errors',
      'Codes.',
    ].join('\n');
    expect(splitSections(md).map((s) => s.headingPath)).toEqual([
      ['Webhooks'],
      ['Webhooks', 'Signatures'],
      ['Webhooks', 'Retries'],
      ['Errors'],
    ]);
    expect(splitSections(md)[1]?.body).toContain('# not a heading');
  });
});

describe('chunkForRetrieval', () => {
  it('cuts long sections under the same heading path, never mid-line', () => {
    const paragraph = (i: number) => `Paragraph ${i} ${'words '.repeat(40)}`.trim();
    const md = `# Guide\n\n## Setup\n\n${Array.from({ length: 12 }, (_, i) => paragraph(i)).join('\n\n')}`;
    const chunks = chunkForRetrieval(md, { maxChars: 800 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.headingPath).toEqual(['Guide', 'Setup']);
      expect(chunk.content.length).toBeLessThanOrEqual(800);
      expect(chunk.content).toMatch(/^Paragraph \d+/);
      expect(chunk.tokenCount).toBe(Math.ceil(chunk.content.length / 4));
    }
  });

  it('joins short sibling sections and keeps the sibling heading in the text', () => {
    const md = '# FAQ\n\n## Is there a free plan?\n\nYes.\n\n## Can I export?\n\nYes, as CSV.';
    const chunks = chunkForRetrieval(md);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.headingPath).toEqual(['FAQ', 'Is there a free plan?']);
    expect(chunks[0]?.content).toContain('**Can I export?**');
    expect(chunks[0]?.content).toContain('Yes, as CSV.');
  });

  it('returns nothing for an empty document', () => {
    expect(chunkForRetrieval('')).toEqual([]);
    expect(chunkForRetrieval('# Only a heading')).toEqual([]);
  });
});
