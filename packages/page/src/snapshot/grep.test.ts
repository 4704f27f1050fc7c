import { describe, expect, it } from 'vitest';
import { compileGrep, describeGrep } from './grep';

const lines = [
  'MAIN [2200 words] /main',
  'HEADING level=1 "Understanding AI Agents" /main/article/h1',
  'REGION "intro" [320 words] /main/article/section.intro',
  'NAVIGATION "Docs" [12 links] /header/nav',
  'CONTENTINFO [85 words] /footer',
  'CODE [45 lines] /main/article/section.content/pre',
];

const keep = (grep: Parameters<typeof compileGrep>[0]) => lines.filter(compileGrep(grep));

describe('compileGrep', () => {
  it('keeps every line without a grep', () => {
    expect(keep(undefined)).toEqual(lines);
  });

  it('treats a string as a regex with | alternatives', () => {
    expect(keep('section.intro|footer')).toEqual([lines[2], lines[4]]);
    expect(keep('h[1-3]')).toEqual([lines[1]]);
  });

  it('is case-sensitive unless ignoreCase', () => {
    expect(keep({ pattern: 'main' })).toEqual([lines[0], lines[1], lines[2], lines[5]]);
    expect(keep({ pattern: 'MAIN' })).toEqual([lines[0]]);
    expect(keep({ pattern: 'navigation|CODE', ignoreCase: true })).toEqual([lines[3], lines[5]]);
  });

  it('inverts the match', () => {
    expect(keep({ pattern: 'nav|footer', invert: true })).toEqual([
      lines[0],
      lines[1],
      lines[2],
      lines[5],
    ]);
  });

  it('matches literally with fixedStrings', () => {
    // As a regex "." matches any character: "section.intro" would also match "sectionXintro".
    expect(keep({ pattern: 'h[1-3]', fixedStrings: true })).toEqual([]);
    expect(keep({ pattern: '[320 words]', fixedStrings: true })).toEqual([lines[2]]);
    expect(() => keep('[320 words')).toThrow(/grep: invalid pattern/);
  });

  it('combines the options', () => {
    expect(keep({ pattern: 'WORDS]', fixedStrings: true, ignoreCase: true, invert: true })).toEqual(
      [lines[1], lines[3], lines[5]],
    );
  });
});

describe('describeGrep', () => {
  it('shows the pattern and its flags', () => {
    expect(describeGrep('article|main')).toBe('article|main');
    expect(describeGrep({ pattern: 'nav', invert: true, ignoreCase: true })).toBe('nav (-iv)');
  });
});
