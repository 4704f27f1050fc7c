// The frame context of any element, rebuilt from window.frameElement links (same-origin only),
// so the executor can map coordinates and hit-test exactly like the capture did.
import type { FrameContext } from '../dom/frames';
import { childFrame, topFrame } from '../dom/frames';

export function frameContextOf(doc: Document, root: Document): FrameContext {
  const frameElement = doc === root ? null : (doc.defaultView?.frameElement ?? null);
  if (!frameElement) return topFrame(doc);
  const parent = frameContextOf(frameElement.ownerDocument, root);
  return childFrame(parent, frameElement, doc, parent.number + 1, true) ?? topFrame(doc);
}

/** Every same-origin document of the page, the top one first. */
export function allDocuments(top: Document): Document[] {
  const docs: Document[] = [top];
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i];
    if (!doc) continue;
    for (const frame of Array.from(doc.querySelectorAll('iframe, frame'))) {
      try {
        const inner = (frame as HTMLIFrameElement).contentDocument;
        if (inner?.documentElement) docs.push(inner);
      } catch {
        // cross-origin
      }
    }
  }
  return docs;
}
