// What the site fields accept (options' "Add a site" and "Sites it may be typed on", the
// popup's "Also allow these sites"): hosts, host:port, localhost, IPv4 and http(s) addresses;
// anything else is refused by name, never dropped.
import { describe, expect, it } from 'vitest';
import { parseSites, readSite } from './site-input';

describe('readSite', () => {
  it.each([
    ['  Docs.Example.com ', 'docs.example.com'],
    ['app.example.com:8080', 'app.example.com:8080'],
    ['https://app.example.com/patients?id=1', 'app.example.com'],
    ['app.example.com/patients', 'app.example.com'],
    ['https://example.com:443/', 'example.com'],
    ['localhost', 'localhost'],
    ['localhost:3000', 'localhost:3000'],
    ['127.0.0.1:4000', '127.0.0.1:4000'],
    ['http://intranet:8080/x', 'intranet:8080'],
    ['bücher.example', 'xn--bcher-kva.example'],
  ])('reads %j as %j', (input, site) => {
    expect(readSite(input)).toEqual({ site });
  });

  it.each([
    'not',
    'a',
    'site!!',
    'bad_host.com',
    '-bad-.com',
    '999.1.1.1',
    'example.c',
    'http://',
    'a.com:0',
  ])('refuses %j, naming it', (input) => {
    expect(readSite(input)).toEqual({
      error: `“${input}” is not a site: enter a host name such as app.example.com, localhost:3000 or 127.0.0.1.`,
    });
  });

  it('says why a pattern or another scheme is refused', () => {
    expect(readSite('*.example.com')).toEqual({
      error:
        '“*.example.com” is not a site: Tandem allows exact hosts only, so add each one (app.example.com).',
    });
    expect(readSite('chrome://settings')).toEqual({
      error: '“chrome://settings” is not a site: only http:// and https:// sites work.',
    });
    expect(readSite('  ')).toEqual({ error: 'Enter a host name such as app.example.com.' });
  });
});

describe('parseSites', () => {
  it('reads a list typed with commas or spaces, each site once', () => {
    expect(parseSites('partner.example, http://localhost:4000/x  partner.example')).toEqual({
      sites: ['partner.example', 'localhost:4000'],
    });
    expect(parseSites('')).toEqual({ sites: [] });
  });

  it('refuses a sentence by its first word instead of taking its words as sites', () => {
    const typed = parseSites('not a site!!');
    expect(typed).toEqual({
      invalid: 'not',
      error:
        '“not” is not a site: enter a host name such as app.example.com, localhost:3000 or 127.0.0.1.',
    });
  });

  it('refuses the whole list for one bad entry', () => {
    expect(parseSites('ok.example.com bad_host!')).toMatchObject({ invalid: 'bad_host!' });
    expect(parseSites('ok.example.com, *.example.com')).toMatchObject({ invalid: '*.example.com' });
  });
});
