import { describe, expect, it } from 'vitest';
import { linksOf } from './links';

describe('linksOf', () => {
  it('reads every link with its attributes decoded, in page order', () => {
    const html =
      '<link rel="next" href="/p?page=2"><A HREF="/a?x=1&amp;y=2" Rel=Next>a</A>' +
      '<area href=\'/map\'><span href="/not-a-link">';
    expect(linksOf(html)).toEqual([
      { rel: 'next', href: '/p?page=2' },
      { href: '/a?x=1&y=2', rel: 'Next' },
      { href: '/map' },
    ]);
  });

  it('finds none in comments, scripts and styles, nor in a tag left open', () => {
    const html =
      '<!-- <a href="/c">--><script>document.write("<a href=\'/s\'>")</script>' +
      '<style>a[href="/t"]{}</style><a href="/real">x</a><a href="/cut';
    expect(linksOf(html).map((l) => l.href)).toEqual(['/real']);
    // A page of unclosed tags is read in one pass, as any other.
    expect(linksOf('<a '.repeat(200_000))).toEqual([]);
  });
});
