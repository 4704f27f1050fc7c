// The HTML a content read of a page sends: what the extension's content script makes of the
// page (mode "content", format "html": the cleaned copy, @tandem/page's snapshot), not the
// page's own markup. Tests of what reads that HTML on the server (a routine's collect step)
// give it this, so they see what the cleaning does to the markup: a heading's button unwrapped,
// controls and hidden elements left out. Parsed without layout, as the server parses pages.
import type { PageLink } from '@tandem/contracts';
import { parseHtml, releaseDocument, snapshotHtml, snapshotLinks } from '@tandem/page/server';

/** The content read of `html`, scoped by `selector` when one is given. */
export const sentHtml = (html: string, url: string, selector?: string): string =>
  snapshotHtml(html, { mode: 'content', format: 'html', url, ...(selector ? { selector } : {}) });

/** The links a read scoped by `selector` sends beside it (SnapshotRequest.pageLinks). */
export function sentLinks(html: string, selector: string): PageLink[] {
  const doc = parseHtml(html);
  try {
    return snapshotLinks(doc, selector);
  } finally {
    releaseDocument(doc);
  }
}
