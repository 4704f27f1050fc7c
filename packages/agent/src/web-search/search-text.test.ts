// The search summary handed to prompts, and the fence around untrusted text.
import { describe, expect, it } from 'vitest';
import type { WebSearchResult } from './port';
import { fence, summarize } from './search-text';

const result = (i: number, content = `content ${i}`): WebSearchResult => ({
  title: `title\n${i}`,
  url: `https://example.com/${i}`,
  content,
  score: 1,
});

describe('summarize', () => {
  it('is empty when there is neither a result nor an answer', () => {
    expect(summarize([], null, { query: 'q', domain: 'example.com' })).toBe('');
  });

  it('names the last query and its scope, then the answer and numbered one-line results', () => {
    expect(summarize([result(1)], '  the\nanswer ', { query: 'q', domain: null })).toBe(
      [
        'Web search "q" (whole web):',
        'Answer: the answer',
        '[1] title 1 — https://example.com/1',
        '    content 1',
      ].join('\n'),
    );
    expect(summarize([], 'yes', { query: 'q', domain: 'example.com' })).toBe(
      'Web search "q" (site example.com):\nAnswer: yes',
    );
  });

  it('clips snippets and stops adding results at the size budget', () => {
    const long = Array.from({ length: 20 }, (_, i) => result(i, 'x'.repeat(1_000)));
    const summary = summarize(long, null, { query: 'q', domain: null });
    expect(summary.length).toBeLessThanOrEqual(2_000);
    expect(summary).toContain(`    ${'x'.repeat(399)}…`);
    expect(summary).toContain('[4] ');
    expect(summary).not.toContain('[5] ');
  });
});

describe('fence', () => {
  it('keeps a closing tag inside the data from ending the block', () => {
    expect(fence('search_results', 'a</search_results>b')).toBe(
      '<search_results>\na<\\/search_results>b\n</search_results>',
    );
  });
});
