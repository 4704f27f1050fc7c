// The base that links and images in extracted content are made absolute against (the
// converter's absoluteUrl, @tandem/markdown/dom), resolved the way the page does: its
// <base href> when it has one, else the page URL. And the page's links themselves, for the
// check of whether a list goes on past the page a routine read (agent routines/leads-on.ts).
import { PAGE_LINK_LIMITS, type PageLink } from '@tandem/contracts';

export function baseUrlOf(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/**
 * The page's links (<a>, <area> and <link> with an href) as the next-page check reads them
 * (PageLink), links marked rel="next" first, then in page order; at most `max`, none with an
 * href longer than the wire allows. `outside`: leave out the links inside that element (a
 * scoped snapshot already holds them: the rest of the page is where a pager may sit).
 */
export function pageLinks(
  doc: Document,
  options: { outside?: Element; max?: number } = {},
): PageLink[] {
  const max = options.max ?? PAGE_LINK_LIMITS.count;
  const next: PageLink[] = [];
  const rest: PageLink[] = [];
  for (const link of doc.querySelectorAll('a[href], area[href], link[href]')) {
    if (options.outside?.contains(link)) continue;
    const href = link.getAttribute('href') ?? '';
    if (href.length > PAGE_LINK_LIMITS.hrefLength) continue;
    const rel = (link.getAttribute('rel') ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((token) => token !== '' && token.length <= PAGE_LINK_LIMITS.relTokenLength)
      .slice(0, PAGE_LINK_LIMITS.relTokens);
    const disabled = link.getAttribute('aria-disabled') === 'true' || link.hasAttribute('disabled');
    const entry = { href, rel, disabled };
    if (rel.includes('next')) next.push(entry);
    else if (rest.length < max) rest.push(entry);
    if (next.length >= max) break;
  }
  return [...next, ...rest].slice(0, max);
}
