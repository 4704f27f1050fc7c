// Functions that run inside the browser via page.evaluate. The bench compiles without the DOM
// lib, so the page globals they touch are typed here by hand.
import type { V3Like } from './recall';

interface PageGlobals {
  TandemPage: {
    captureTree(options?: Record<string, unknown>): { interactiveTree: V3Like[] };
  };
  document: { getElementsByTagName(tag: string): { length: number } };
  performance: { now(): number };
}

export interface CaptureSample {
  coldMs: number;
  warmMs: number[];
  elements: number;
  /** The default tree (no `box`), as sent. */
  tree: string;
  /** The whole captureTree result, as sent. */
  result: string;
  /** The same tree with `box`, for matching against Playwright's boxes. */
  treeWithBox: V3Like[];
}

/** One cold capture (ids assigned, observer started), then `repeats` warm ones. */
export function measureCapture(repeats: number): CaptureSample {
  const page = globalThis as unknown as PageGlobals;
  const api = page.TandemPage;
  const t0 = page.performance.now();
  const first = api.captureTree();
  const coldMs = page.performance.now() - t0;
  const warmMs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = page.performance.now();
    api.captureTree();
    warmMs.push(page.performance.now() - start);
  }
  const withBox = api.captureTree({ includeBox: true });
  return {
    coldMs,
    warmMs,
    elements: page.document.getElementsByTagName('*').length,
    tree: JSON.stringify(first.interactiveTree),
    result: JSON.stringify(first),
    treeWithBox: withBox.interactiveTree,
  };
}

interface Rectangle {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

interface PageElement {
  parentElement: PageElement | null;
  getBoundingClientRect(): Rectangle;
  contains(other: unknown): boolean;
  checkVisibility(options: Record<string, boolean>): boolean;
}

interface StyleGlobals {
  getComputedStyle(el: PageElement): {
    overflowX: string;
    overflowY: string;
    clip: string;
    clipPath: string;
  };
  document: { elementFromPoint(x: number, y: number): PageElement | null };
}

export type MissReason = 'clipped' | 'hidden' | 'covered' | 'visible';

/**
 * Why an element Playwright lists was not in the V3 tree: clipped by an overflow ancestor
 * (scrolled out of a box, a collapsed panel), visually hidden (opacity, clip), covered by
 * another element at its centre, or plainly visible (a real miss).
 */
export function missReason(target: unknown): MissReason {
  const page = globalThis as unknown as StyleGlobals;
  const el = target as PageElement;
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  for (let a = el.parentElement; a; a = a.parentElement) {
    const style = page.getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    if (x < r.left || x > r.right || y < r.top || y > r.bottom) return 'clipped';
  }
  const own = page.getComputedStyle(el);
  const clipped =
    (own.clip !== 'auto' && own.clip !== '') || (own.clipPath !== 'none' && own.clipPath !== '');
  if (clipped || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
    return 'hidden';
  const hit = page.document.elementFromPoint(x, y);
  if (!hit || !(el.contains(hit) || hit.contains(el))) return 'covered';
  return 'visible';
}
