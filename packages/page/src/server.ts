// @tandem/page/server: the snapshot core over HTML in Node (tests, ingestion). Same functions
// as in the page, over a jsdom document without layout: no viewport in headers, and only
// markup (hidden attribute, inline styles) decides what is hidden. Never bundled for the page.
import type { DOMWindow } from 'jsdom';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { SnapshotOptions } from './snapshot/snapshot';
import { snapshotDocument } from './snapshot/snapshot';

export type { SnapshotOptions } from './snapshot/snapshot';
export { resolveXpath, snapshotLinks } from './snapshot/snapshot';
export { pageLinks } from './snapshot/links';

interface ParserWindow {
  window: DOMWindow;
  parser: DOMParser;
  parsed: number;
  /** Documents parsed here and not released yet. */
  open: number;
  retired: boolean;
}

/**
 * Documents per jsdom window before a fresh one is used. jsdom's selector engine caches per
 * window and keeps every document it queried alive until the window is closed (measured on
 * data/pages-dev: ~5 MB per page, out of memory after ~350 pages), so windows are rotated and
 * closed once all their documents are released. Creating a window costs about one page parse.
 */
const ROTATE_AFTER = 10;

let current: ParserWindow | undefined;
const owners = new WeakMap<Document, ParserWindow>();

function closeIfDone(owner: ParserWindow): void {
  if (owner.retired && owner.open === 0) owner.window.close();
}

function parserWindow(): ParserWindow {
  if (!current || current.parsed >= ROTATE_AFTER) {
    if (current) {
      current.retired = true;
      closeIfDone(current);
    }
    const { window } = new JSDOM('', { virtualConsole: new VirtualConsole() });
    current = { window, parser: new window.DOMParser(), parsed: 0, open: 0, retired: false };
  }
  return current;
}

/**
 * Parses HTML into a Document. Windows are shared between parses: a window per page costs ~4x
 * the parse itself (measured on data/pages-dev), and documents from DOMParser have no browsing
 * context, so no script runs and no stylesheet is fetched or parsed. Call releaseDocument()
 * when done with it.
 */
export function parseHtml(html: string): Document {
  const owner = parserWindow();
  const doc = owner.parser.parseFromString(html, 'text/html');
  owner.parsed++;
  owner.open++;
  owners.set(doc, owner);
  return doc;
}

/** Frees a document from parseHtml: its tree, and its window once all of its documents are. */
export function releaseDocument(doc: Document): void {
  const root = doc.documentElement;
  if (root) doc.removeChild(root);
  const owner = owners.get(doc);
  if (!owner) return;
  owners.delete(doc);
  owner.open--;
  closeIfDone(owner);
}

export interface SnapshotHtmlOptions extends Omit<SnapshotOptions, 'document'> {
  /** Where the HTML came from: shown in headers, and relative links resolve against it. */
  url?: string;
}

/** Outline or content snapshot of an HTML string (interactive mode needs a real page). */
export function snapshotHtml(html: string, options: SnapshotHtmlOptions = {}): string {
  const doc = parseHtml(html);
  try {
    return snapshotParsed(doc, options);
  } finally {
    releaseDocument(doc);
  }
}

/** The same over a document parsed once (several snapshots of one page). */
export function snapshotParsed(doc: Document, options: SnapshotHtmlOptions = {}): string {
  return snapshotDocument(
    doc,
    { ...options, url: options.url ?? 'about:blank' },
    { layout: false },
  );
}
