// What the spider reads from an HTML page: its title and the links a person could follow.
// <a href> and <area href> only: <link>, <script> and <img> point at assets, not pages.
import * as cheerio from 'cheerio';
import { normaliseUrl } from './urls';

export interface HtmlSummary {
  title?: string;
  /** Normalised absolute http(s) URLs, deduplicated, in document order. */
  links: string[];
}

/** `pageUrl` is where the page was finally served from: relative links resolve against it. */
export function readHtml(html: string, pageUrl: string): HtmlSummary {
  const $ = cheerio.load(html);
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  // <base href> changes what relative links mean; it may itself be relative to the page.
  const baseHref = $('base[href]').first().attr('href');
  const base = (baseHref && normaliseUrl(baseHref, pageUrl)) || pageUrl;
  const links = new Set<string>();
  $('a[href], area[href]').each((_index, element) => {
    const rel = ($(element).attr('rel') ?? '').toLowerCase().split(/\s+/);
    // rel=nofollow is the site asking crawlers not to follow (login, "edit this page" links).
    if (rel.includes('nofollow')) return;
    const url = normaliseUrl($(element).attr('href') ?? '', base);
    if (url) links.add(url);
  });
  return { ...(title ? { title } : {}), links: [...links] };
}

/** Decodes with the page's charset when TextDecoder knows it, UTF-8 otherwise. */
export function decodeBody(body: Uint8Array, charset?: string): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder().decode(body);
  }
}
