// The content an extraction reads: HTML parsed once (jsdom through @tandem/page/server), scoped
// by the CSS selector, and rendered as Markdown by the same content snapshot the extension
// uses (tables normalised to GFM, hidden elements and controls left out). Markdown given
// directly is used as it is.
import { parseHtml, releaseDocument, snapshotParsed } from '@tandem/page/server';

export interface ParsedContent {
  /** The scope: the selector's element, or the body. Null for Markdown input. */
  root: Element | null;
  /** Rendered when first read (after release() it cannot be). */
  readonly markdown: string;
  sourceChars: number;
  warnings: string[];
  release(): void;
}

/** Snapshot comment lines (`<!-- source: … -->`) cost tokens and say nothing to the extractor. */
const stripSnapshotComments = (text: string): string =>
  text.replace(/^<!-- (?:source|xpath|end|truncated)[^\n]*-->\n?/gm, '').trim();

export function parseContent(input: {
  html?: string;
  markdown?: string;
  cssSelector?: string | null;
  url: string | null;
}): ParsedContent {
  if (input.html === undefined) {
    const markdown = input.markdown ?? '';
    return { root: null, markdown, sourceChars: markdown.length, warnings: [], release: () => {} };
  }
  const doc = parseHtml(input.html);
  const warnings: string[] = [];
  let root: Element | null = doc.body ?? doc.documentElement;
  let selector = input.cssSelector ?? undefined;
  if (selector) {
    const match = safeQuery(doc, selector);
    if (match) root = match;
    else {
      warnings.push(
        `cssSelector ${JSON.stringify(selector)} matched no element; the whole page was used.`,
      );
      selector = undefined;
    }
  }
  // Rendered on first use: a replayed strategy reads the DOM and never needs the Markdown.
  let markdown: string | undefined;
  const render = () =>
    stripSnapshotComments(
      snapshotParsed(doc, {
        mode: 'content',
        format: 'markdown',
        ...(input.url ? { url: input.url } : {}),
        ...(selector ? { selector } : {}),
      }),
    );
  return {
    root,
    get markdown() {
      markdown ??= render();
      return markdown;
    },
    // Serialising the whole page again only to count it would cost more than the parse.
    sourceChars: selector && root ? root.outerHTML.length : input.html.length,
    warnings,
    release: () => releaseDocument(doc),
  };
}

function safeQuery(doc: Document, selector: string): Element | null {
  try {
    return doc.querySelector(selector);
  } catch {
    return null;
  }
}
