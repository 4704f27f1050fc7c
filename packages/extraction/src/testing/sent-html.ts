// The HTML a content read of a page sends: what the extension's content script makes of the
// page (mode "content", format "html": the cleaned copy, @tandem/page's snapshot), not the
// page's own markup. Tests of what reads that HTML on the server (a routine's collect step)
// give it this, so they see what the cleaning does to the markup: a heading's button unwrapped,
// controls and hidden elements left out. Parsed without layout, as the server parses pages.
import { snapshotHtml } from '@tandem/page/server';

export const sentHtml = (html: string, url: string): string =>
  snapshotHtml(html, { mode: 'content', format: 'html', url });
