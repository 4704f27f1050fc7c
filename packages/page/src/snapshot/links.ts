// Absolute URLs for links and images in extracted content, resolved the way the page does:
// against its <base href> when it has one, else against the page URL.

export function baseUrlOf(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** The absolute http(s)/mailto URL an attribute names, or undefined (javascript:, #, data:). */
export function absoluteUrl(value: string | null, base: string): string | undefined {
  const raw = value?.trim();
  if (!raw || raw.startsWith('#')) return undefined;
  try {
    const url = new URL(raw, base);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
