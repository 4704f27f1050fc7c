// The page-state modes and their fallback chain (docs/specs.md, "Mode Priority"):
//   semantic_v3 (default) -> semantic when V3 fails or is empty -> skeleton when semantic fails.
// `full` (the whole outerHTML) and `hybrid` (the V3 tree, to which the extension adds a
// screenshot) are only ever produced when asked for explicitly, which the extension does only
// after the server answered `needs_full_dom` / `needs_screenshot`.
import type { DomMode, SemanticNodeV3 } from '@tandem/contracts';
import type { CaptureOptions, CaptureResult, SemanticNode } from '../types';
import { collect } from './collect';
import type { RecentActivity } from './events';
import { takeRecentActivity } from './events';
import { skeletonOf } from './skeleton';
import { hiddenTest } from '../snapshot/visibility';
import { MASKED_VALUE } from './states';
import { captureTreeWith, collectOptions, pageFields } from './tree';

/** The non-minified legacy nodes of every rendered interactive element (no pruning). */
export function captureSemantic(options: CaptureOptions = {}): SemanticNode[] {
  const doc = options.document ?? document;
  const collected = collect(
    doc,
    collectOptions({ ...options, includeOffscreen: true, occlusion: false }, null),
  );
  return collected.nodes.map((node) => {
    const out: SemanticNode = { id: node.id, role: node.role, name: node.name };
    if (node.value !== undefined) out.value = node.value;
    if (node.state) out.state = node.state;
    return out;
  });
}

export function captureSkeleton(options: CaptureOptions = {}): string {
  const doc = options.document ?? document;
  const collected = collect(
    doc,
    collectOptions({ ...options, includeOffscreen: true, occlusion: false }, null),
  );
  return skeletonOf(collected.nodes);
}

/** Parts of a control, shown by the control itself: they have no box of their own. */
const CONTROL_PARTS = 'option, optgroup';

/**
 * Document-order indexes (among `root`'s descendants) of the elements the user cannot see:
 * display:none, the hidden attribute, visibility:hidden, closed <details>, as the content
 * snapshot judges them (visibility.ts). Outermost only: their inside goes with them.
 */
function hiddenIndexes(root: Element): number[] {
  const hidden = hiddenTest({ layout: true, includeHidden: false });
  const out: number[] = [];
  let dropped: Element | null = null;
  root.querySelectorAll('*').forEach((el, index) => {
    if (dropped?.contains(el)) return;
    if (el.matches(CONTROL_PARTS) || !hidden(el)) return;
    dropped = el;
    out.push(index);
  });
  return out;
}

/**
 * The whole document's HTML as the user sees it: without the elements they cannot see (hidden
 * text is where injected instructions hide, and it must never reach the model), and
 * with the value of every password field masked (a page may write a password into its `value`
 * attribute, and no password leaves the page).
 */
export function captureFullDom(doc: Document = document): string {
  const copy = doc.documentElement.cloneNode(true) as HTMLElement;
  // A deep clone has the same elements in the same order: an index names the same element.
  const body = doc.body as HTMLElement | null;
  const copyBody = copy.querySelector('body');
  if (body && copyBody) {
    const elements = copyBody.querySelectorAll('*');
    for (const index of hiddenIndexes(body)) elements[index]?.remove();
  }
  for (const input of Array.from(copy.querySelectorAll('input[type="password" i][value]')))
    input.setAttribute('value', input.getAttribute('value') ? MASKED_VALUE : '');
  return copy.outerHTML;
}

export interface PageStateOptions extends CaptureOptions {
  /** The mode to try first. Default semantic_v3. */
  mode?: DomMode;
  /** Called when a mode failed or was empty and the next one was used. */
  onFallback?: (from: DomMode, reason: string) => void;
}

/**
 * The page-state part of an InteractRequest in the chosen mode. Fields per mode:
 * - semantic_v3: interactiveTree (minified, pruned to the viewport) + all V3 advanced fields
 * - semantic: interactiveTree without coordinates and without pruning + the advanced fields.
 *   The contract types interactiveTree as SemanticNodeV3 in both modes, so the keys stay
 *   minified here; captureSemantic() gives the long-key form.
 * - hybrid: the semantic_v3 fields (the tree with its `xy` points, which the model matches to
 *   the screenshot), never falling back; the extension adds the screenshot. The skeleton of
 *   the spec's hybrid mode would repeat the tree in more tokens.
 * - skeleton: skeletonDom
 * - full: dom (document.documentElement.outerHTML, without what the user cannot see)
 */
export type PageState = Partial<Omit<CaptureResult, 'interactiveTree'>> & {
  domMode: DomMode;
  url: string;
  pageTitle: string;
  interactiveTree?: SemanticNodeV3[];
  skeletonDom?: string;
  dom?: string;
};

function semanticState(options: CaptureOptions, activity: RecentActivity): PageState {
  const doc = options.document ?? document;
  const collected = collect(
    doc,
    collectOptions({ ...options, includeOffscreen: true, occlusion: false }, activity.messages),
  );
  const interactiveTree = collected.nodes.map((node) => {
    const out: SemanticNodeV3 = { i: node.id, r: node.role };
    if (node.name) out.n = node.name;
    if (node.value !== undefined) out.v = node.value;
    if (node.state) out.s = node.state;
    if (node.frame !== 0) out.f = node.frame;
    if (node.leadsTo) out.h = node.leadsTo;
    return out;
  });
  return { domMode: 'semantic', interactiveTree, ...pageFields(collected, activity.events) };
}

function skeletonState(options: CaptureOptions): PageState {
  const doc = options.document ?? document;
  const collected = collect(
    doc,
    collectOptions({ ...options, includeOffscreen: true, occlusion: false }, null),
  );
  return {
    domMode: 'skeleton',
    url: doc.defaultView?.location.href ?? doc.URL,
    pageTitle: doc.title,
    viewport: collected.viewport,
    skeletonDom: skeletonOf(collected.nodes),
  };
}

const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export function capturePageState(options: PageStateOptions = {}): PageState {
  const { mode = 'semantic_v3', onFallback, ...capture } = options;
  const doc = capture.document ?? document;

  if (mode === 'full') {
    return {
      domMode: 'full',
      url: doc.defaultView?.location.href ?? doc.URL,
      pageTitle: doc.title,
      dom: captureFullDom(doc),
    };
  }
  if (mode === 'skeleton') return skeletonState(capture);

  // Drained once: a fallback must still report what happened since the previous capture.
  const activity = takeRecentActivity(doc);
  // A canvas page's tree is empty, and that is what the screenshot is for: no fallback.
  if (mode === 'hybrid') return { domMode: 'hybrid', ...captureTreeWith(capture, activity) };
  if (mode === 'semantic_v3') {
    try {
      const tree = captureTreeWith(capture, activity);
      if (tree.interactiveTree.length > 0) return { domMode: 'semantic_v3', ...tree };
      onFallback?.('semantic_v3', 'no interactive element near the viewport');
    } catch (error) {
      onFallback?.('semantic_v3', reasonOf(error));
    }
  }
  try {
    return semanticState(capture, activity);
  } catch (error) {
    onFallback?.('semantic', reasonOf(error));
  }
  return skeletonState(capture);
}
