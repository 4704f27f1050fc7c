// Absolute URLs for links and images in converted content. Resolved with the URL class
// alone, so the same code runs in a page, a service worker and Node.

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
