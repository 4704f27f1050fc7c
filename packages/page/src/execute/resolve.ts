// Finding the element an action names, and making sure it is still the element the model saw.
// An id is checked against the role and name captured with it; if they no longer match (a
// framework reused the DOM node for other content) or the element is gone (re-rendered), the
// element is looked up again by its captured fingerprint, and only a unique match is used.
import { isValidLlmId, LLM_ID_ATTRIBUTE } from '../dom/elements';
import { fingerprintOf, PathBuilder } from '../capture/fingerprint';
import type { LabelIndex } from '../capture/names';
import { accessibleName } from '../capture/names';
import { roleCodeOf } from '../capture/roles';
import type { IdEntry, IdRegistry } from '../capture/stable-ids';
import { frameNumberOf, liveElement, registryFor } from '../capture/stable-ids';
import { walk } from '../capture/walk';
import { topFrame } from '../dom/frames';
import { CAPTURE_DEFAULTS } from '../capture/tree';
import { allDocuments } from './frame-of';
import { fail } from './result';

export interface Resolved {
  el: Element;
  role: string;
  name: string;
  /** Set when the element was found again by fingerprint. */
  refound?: string;
}

function labelIndexFor(el: Element): LabelIndex {
  const index: LabelIndex = new Map();
  const id = el.getAttribute('id');
  if (!id) return index;
  const scope = el.getRootNode() as Document | ShadowRoot;
  const label = scope.querySelector(`label[for="${CSS.escape(id)}"]`);
  if (label) index.set(scope, new Map([[id, label]]));
  return index;
}

export function identityOf(el: Element, maxNameLength: number): { role: string; name: string } {
  const role = roleCodeOf(el, el.tagName) ?? '';
  const name = accessibleName(el, el.tagName, role, {
    labels: labelIndexFor(el),
    maxLength: maxNameLength,
  });
  return { role, name };
}

function searchShadowRoots(root: ParentNode, selector: string): Element | null {
  const node = root as Node;
  const doc = node.nodeType === 9 ? (node as Document) : node.ownerDocument;
  if (!doc) return null;
  const walker = doc.createTreeWalker(node, 1);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const shadow = (node as Element).shadowRoot;
    if (!shadow) continue;
    const found = shadow.querySelector(selector) ?? searchShadowRoots(shadow, selector);
    if (found) return found;
  }
  return null;
}

/** Any element carrying the id, in every same-origin frame and open shadow root. */
export function findById(top: Document, id: string): Element | null {
  const selector = `[${LLM_ID_ATTRIBUTE}="${id}"]`;
  const docs = allDocuments(top);
  for (const doc of docs) {
    const found = doc.querySelector(selector);
    if (found) return found;
  }
  for (const doc of docs) {
    const found = searchShadowRoots(doc, selector);
    if (found) return found;
  }
  return null;
}

function findByFingerprint(top: Document, registry: IdRegistry, entry: IdEntry): Element[] {
  const walked = walk(topFrame(top), {
    layout: false,
    frames: true,
    frameNumber: (iframe) => frameNumberOf(registry, iframe),
  });
  const paths = new PathBuilder();
  const matches: Element[] = [];
  for (const candidate of walked.candidates) {
    if (candidate.role !== entry.role || candidate.frame.number !== entry.frame) continue;
    const name = accessibleName(candidate.el, candidate.tag, candidate.role, {
      labels: walked.labels,
      maxLength: entry.nameLength,
    });
    if (name !== entry.name) continue;
    const fingerprint = fingerprintOf(entry.frame, entry.role, name, paths.pathOf(candidate.el));
    if (fingerprint === entry.fingerprint) matches.push(candidate.el);
  }
  return matches;
}

const describe = (role: string, name: string): string => (name ? `${role} '${name}'` : role);

/** Resolves an action's element id or throws an ActionFailure saying why not. */
export function resolveElement(top: Document, id: string): Resolved {
  if (!isValidLlmId(id)) fail('invalid_action', `invalid element id ${JSON.stringify(id)}`);
  const win = top.defaultView;
  if (!win) return fail('failed', 'the document has no window');
  const registry = registryFor(win);
  const entry = registry.byId.get(id);
  const el = liveElement(entry) ?? findById(top, id);

  if (!entry) {
    // Never captured by this registry (e.g. the content script was re-injected): there is no
    // captured identity to check, so the id on the element is all we can go by.
    if (!el) return fail('not_found', `no element with id ${id} on the page`);
    const identity = identityOf(el, CAPTURE_DEFAULTS.maxNameLength);
    return { el, ...identity };
  }

  // Scroll containers are not interactive elements: their identity is the element itself.
  if (entry.role === 'scroll') {
    if (el) return { el, role: 'scroll', name: entry.name };
    return fail('not_found', `scroll container ${id} is no longer on the page`);
  }

  if (el) {
    const now = identityOf(el, entry.nameLength);
    if (now.role === entry.role && now.name === entry.name) return { el, ...now };
  }

  const matches = findByFingerprint(top, registry, entry).filter((m) => m !== el);
  const was = describe(entry.role, entry.name);
  if (matches.length === 1 && matches[0]) {
    const found = matches[0];
    const foundId = found.getAttribute(LLM_ID_ATTRIBUTE);
    // The old element is gone: the id moves to its re-rendered twin (same fingerprint).
    if (!el && !(isValidLlmId(foundId) && liveElement(registry.byId.get(foundId)) === found)) {
      found.setAttribute(LLM_ID_ATTRIBUTE, id);
      entry.ref = new WeakRef(found);
    }
    return {
      el: found,
      role: entry.role,
      name: entry.name,
      refound: `element ${id} (${was}) was re-rendered; acted on its unique match by fingerprint`,
    };
  }
  const ambiguity =
    matches.length > 1 ? ` (${matches.length} elements match it, none is unique)` : '';
  if (!el) return fail('not_found', `element ${id} (${was}) is no longer on the page${ambiguity}`);
  const now = identityOf(el, entry.nameLength);
  return fail(
    'element_changed',
    `element changed: ${id} was ${was} when captured, now ${describe(now.role || 'non-interactive', now.name)}${ambiguity}`,
  );
}
