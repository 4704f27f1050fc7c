// The sites a user types: the options page's "Add a site" and "Sites it may be typed on", and
// the popup's "Also allow these sites". One reader for all of them, so each field accepts and
// refuses the same things with the same words. The sites end up in exact-match allowlists
// (site-policy's isSiteAllowed, the site guard's rules, the learn consent list): a site is one
// host with its port when not the default, never a pattern.
import { parseSite } from '@tandem/contracts';

export type SiteReading = { site: string } | { error: string };

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** A name with a dot and a top-level label that is a word (".com", ".internal", ".xn--p1ai"). */
const DOTTED_NAME = /\.[a-z][a-z0-9-]*[a-z0-9]$/;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * Whether the host looks like a place one could browse to. Contracts' parseSite takes any
 * label ("not", "a"), which would let a stray word of a sentence into the allowlist; a single
 * label is kept only for localhost, or when typed as an address (http://intranet:8080).
 */
function isRealHost(site: string, typedAsAddress: boolean): boolean {
  const match = /^(.*?)(?::(\d+))?$/.exec(site);
  const host = match?.[1] ?? '';
  const port = match?.[2];
  if (port !== undefined && Number(port) < 1) return false;
  return host === 'localhost' || IPV4.test(host) || DOTTED_NAME.test(host) || typedAsAddress;
}

/** One typed site ("app.example.com", "localhost:3000", any http(s) URL of it), or why not. */
export function readSite(input: string): SiteReading {
  const word = input.trim();
  const refuse = (why: string): SiteReading => ({ error: `“${word}” is not a site: ${why}.` });
  if (!word) return { error: 'Enter a host name such as app.example.com.' };
  if (word.includes('*'))
    return refuse('Tandem allows exact hosts only, so add each one (app.example.com)');
  const scheme = SCHEME.exec(word)?.[1];
  if (scheme && !/^https?$/i.test(scheme)) return refuse('only http:// and https:// sites work');
  const site = parseSite(word);
  if (!site || !isRealHost(site, scheme !== undefined))
    return refuse('enter a host name such as app.example.com, localhost:3000 or 127.0.0.1');
  return { site };
}

/**
 * The sites of a list typed with commas or spaces ("a.example.com, b.example.com:8080"), each
 * once; or the first entry that is not a site, with why. Nothing is dropped silently: one bad
 * entry refuses the whole list.
 */
export function parseSites(text: string): { sites: string[] } | { invalid: string; error: string } {
  const sites: string[] = [];
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const read = readSite(word);
    if ('error' in read) return { invalid: word, error: read.error };
    if (!sites.includes(read.site)) sites.push(read.site);
  }
  return { sites };
}
