import { describe, expect, it } from 'vitest';
import { decodeBody, readHtml } from './html-links';

const PAGE = 'https://docs.example.com/docs/guide/start.html';

describe('readHtml', () => {
  it('reads the title and the followable links, resolved and deduplicated', () => {
    const html = `<!doctype html><html><head><title>
        Start ·   Docs </title><link rel="stylesheet" href="/style.css"></head><body>
      <a href="../api.html#auth">API</a>
      <a href="../api.html">API again</a>
      <a href="/login" rel="nofollow">Log in</a>
      <a href="mailto:help@example.com">Mail</a>
      <a href="javascript:void(0)">Menu</a>
      <a href="#section">Here</a>
      <a>No href</a>
      <img src="/diagram.png">
      <map><area href="/docs/map.html"></map>
      <a href="https://other.example/x">Elsewhere</a>
    </body></html>`;
    expect(readHtml(html, PAGE)).toEqual({
      title: 'Start · Docs',
      links: [
        'https://docs.example.com/docs/api.html',
        PAGE,
        'https://docs.example.com/docs/map.html',
        'https://other.example/x',
      ],
    });
  });

  it('resolves against <base href>, itself relative to the page', () => {
    const html = '<head><base href="/v2/"></head><body><a href="intro.html">Intro</a></body>';
    expect(readHtml(html, PAGE).links).toEqual(['https://docs.example.com/v2/intro.html']);
  });

  it('has no title when the page has none', () => {
    expect(readHtml('<p>hi</p>', PAGE)).toEqual({ links: [] });
  });
});

describe('decodeBody', () => {
  it('uses the charset when known and UTF-8 otherwise', () => {
    expect(decodeBody(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
    expect(decodeBody(new TextEncoder().encode('café'), 'no-such-charset')).toBe('café');
    expect(decodeBody(new TextEncoder().encode('café'))).toBe('café');
  });
});
