// snapshot() (docs/specs.md, "page snapshots"): one entry point, three modes, always a string. The
// core takes a Document and plain DOM interfaces only, so it runs unchanged in a page (layout
// available) and on the server over a parsed document (no layout: viewport and CSS visibility
// unknown).
import type { PageLink, SnapshotFormat, SnapshotMode, SnapshotRequest } from '@tandem/contracts';
import { collapse } from '../dom/text';
import { chooseSections, renderContent } from './content';
import { compileGrep, describeGrep } from './grep';
import { renderInteractive } from './interactive';
import { baseUrlOf, pageLinks } from './links';
import { buildOutline } from './outline-model';
import type { PageHeader } from './outline-text';
import { renderOutline } from './outline-text';
import { resolveScope } from './scope';
import { XpathBuilder } from './xpath';

export interface SnapshotOptions extends Partial<SnapshotRequest> {
  /** Document to snapshot; default the current one. */
  document?: Document;
  /** The page URL shown in headers and used for links; default the document's. */
  url?: string;
}

export interface SnapshotEnvironment {
  /** The document is rendered: read the viewport and ask the engine what is visible. */
  layout: boolean;
}

const MODES: readonly SnapshotMode[] = ['interactive', 'outline', 'content'];
const FORMATS: readonly SnapshotFormat[] = ['tree', 'html', 'markdown'];

function pageUrlOf(doc: Document, override: string | undefined): string {
  if (override) return override;
  try {
    return doc.defaultView?.location.href ?? doc.URL;
  } catch {
    return doc.URL;
  }
}

/** The snapshot text for `doc`; throws on invalid options or a selector that matches nothing. */
export function snapshotDocument(
  doc: Document,
  options: SnapshotOptions,
  env: SnapshotEnvironment,
): string {
  const mode = options.mode ?? 'interactive';
  const format = options.format ?? 'tree';
  if (!MODES.includes(mode)) throw new Error(`snapshot: unknown mode ${JSON.stringify(mode)}`);
  if (!FORMATS.includes(format))
    throw new Error(`snapshot: unknown format ${JSON.stringify(format)}`);

  const filter = compileGrep(options.grep);
  const grep = options.grep === undefined ? undefined : describeGrep(options.grep);
  const url = pageUrlOf(doc, options.url);
  const builder = new XpathBuilder(doc);
  const scope = options.selector ? resolveScope(doc, options.selector, builder) : undefined;

  if (mode === 'interactive') {
    if (!env.layout) throw new Error('snapshot: interactive mode needs a rendered page (layout)');
    return renderInteractive({ doc, scope, filter, grep, url });
  }

  const visibility = { layout: env.layout, includeHidden: options.includeHidden === true };
  const outline = buildOutline(doc, { ...visibility, scope });
  const view = doc.defaultView;
  const page: PageHeader = { url, title: collapse(doc.title) };
  if (env.layout && view) page.viewport = { width: view.innerWidth, height: view.innerHeight };

  if (mode === 'outline') {
    return renderOutline(outline, { page, filter, grep, maxDepth: options.maxDepth });
  }

  const invert = typeof options.grep === 'object' && options.grep.invert === true;
  const scopeLabel =
    outline.builder.xpathOf(outline.scope) ?? `selector ${options.selector ?? ''}`.trim();
  const choice = chooseSections(
    outline,
    scopeLabel,
    options.grep === undefined ? undefined : filter,
    invert,
  );
  return renderContent(doc, choice, {
    ...visibility,
    format,
    includeLinks: options.includeLinks === true,
    includeImages: options.includeImages === true,
    maxLength: options.maxLength,
    baseUrl: baseUrlOf(doc, url),
    page,
    grep,
  });
}

/**
 * The page's links outside the snapshot's scope (SnapshotRequest.pageLinks): where a list's
 * pager sits when the snapshot is scoped to the list. Throws as the snapshot does on a selector
 * that matches nothing.
 */
export function snapshotLinks(doc: Document, selector: string | undefined): PageLink[] {
  const scope = selector ? resolveScope(doc, selector, new XpathBuilder(doc)) : undefined;
  return pageLinks(doc, scope ? { outside: scope } : {});
}

/** In the page: snapshot of the current (or given) document, with layout. */
export async function snapshot(options: SnapshotOptions = {}): Promise<string> {
  return snapshotDocument(options.document ?? document, options, { layout: true });
}

/** The elements an outline xpath names in `doc` (the first is what `selector` uses). */
export function resolveXpath(doc: Document, xpath: string): Element[] {
  return new XpathBuilder(doc).resolve(xpath);
}
