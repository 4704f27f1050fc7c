// The base that links and images in extracted content are made absolute against (the
// converter's absoluteUrl, @tandem/markdown/dom), resolved the way the page does: its
// <base href> when it has one, else the page URL.

export function baseUrlOf(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}
