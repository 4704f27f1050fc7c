// Collects the interactive elements of a page with everything every output mode needs. The
// phases run in a fixed order so reads and writes never interleave:
//   walk (attributes) -> rects -> visibility -> names/values/states -> hit tests
//   -> fingerprints -> id writes (the only writes, batched at the very end).
import { deepActiveElement } from '../dom/elements';
import { topFrame } from '../dom/frames';
import type { Rect } from '../dom/geometry';
import { center, expandVertically, intersection, intersects } from '../dom/geometry';
import { scrollDepth } from '../dom/text';
import { foreignSiteOf } from './destination';
import { fingerprintOf, PathBuilder } from './fingerprint';
import { isRendered, targetRect } from './geometry-read';
import type { NameContext } from './names';
import { accessibleName } from './names';
import { occluderAt } from './occlusion';
import type { RecentMessage, SentinelReport } from './sentinel';
import { runSentinel } from './sentinel';
import { statesOf, valueOf } from './states';
import type { IdRequest } from './stable-ids';
import { assignIds, frameNumberOf, registryFor } from './stable-ids';
import type { Clip, ScrollContainerHit } from './clips';
import { ClipFinder } from './clips';
import type { Candidate, WalkResult } from './walk';
import { walk } from './walk';

export interface CollectOptions {
  /** Extra band kept above and below the viewport, in viewport heights. */
  viewportMargin: number;
  /** Keep every rendered element, wherever it is (semantic/skeleton modes). */
  includeOffscreen: boolean;
  /** Hit-test elements in the viewport for `occ`. */
  occlusion: boolean;
  maxNameLength: number;
  maxValueLength: number;
  frames: boolean;
  /** Run the Sentinel with these recently appeared messages; null skips it. */
  recentMessages: RecentMessage[] | null;
}

export interface CollectedNode {
  el: Element;
  id: string;
  role: string;
  name: string;
  value: string | undefined;
  state: string | undefined;
  rect: Rect;
  frame: number;
  occluded: boolean;
  scroll: { depth: string; h: number } | undefined;
  /** The other site a click on it leads to (a link, a form's submit), if any. */
  leadsTo: string | null;
}

export interface CollectedContainer {
  el: Element;
  id: string;
  name: string;
  rect: Rect;
  depth: string;
  scrollHeight: number;
  hasMore: boolean;
}

export interface Collected {
  doc: Document;
  nodes: CollectedNode[];
  containers: CollectedContainer[];
  walk: WalkResult;
  sentinel: SentinelReport | null;
  viewport: { width: number; height: number };
  /** Layout viewport without scrollbars, in top coordinates. */
  viewportRect: Rect;
}

/** Most scroll containers a capture reports; more is noise (nested lists inside lists). */
const MAX_CONTAINERS = 10;

interface Kept {
  candidate: Candidate;
  rect: Rect;
  clip: Clip | null;
}

/**
 * Viewport pruning in two steps: boxes outside the viewport band go first (a rect read each),
 * then what a clipping ancestor hides (scrolled out of a list, a collapsed panel), looked up
 * only for the survivors. A scroll container's clip gets the same margin as the viewport.
 */
function keepCandidates(
  walked: WalkResult,
  bounds: Rect | null,
  margin: number,
  clips: ClipFinder,
): Kept[] {
  const inBand: Kept[] = [];
  const submitsBelow: Kept[] = [];
  for (const candidate of walked.candidates) {
    const rect = targetRect(candidate.el, candidate.role, candidate.frame);
    if (rect.w <= 0 || rect.h <= 0) continue;
    if (bounds) {
      const clip = candidate.frame.clip;
      const outside = !intersects(rect, bounds) || (clip ? !intersects(rect, clip) : false);
      if (outside) {
        if (formOfSubmit(candidate.el)) submitsBelow.push({ candidate, rect, clip: null });
        continue;
      }
    }
    inBand.push({ candidate, rect, clip: null });
  }
  const kept: Kept[] = [];
  for (const k of inBand) {
    const clip = clips.clipOf(k.candidate.el, k.candidate.frame);
    k.clip = clip;
    const visibleArea = clip && (clip.scrollable ? expandVertically(clip.rect, margin) : clip.rect);
    if (bounds && visibleArea && !intersects(k.rect, visibleArea)) continue;
    if (isRendered(k.candidate.el)) kept.push(k);
  }
  return withFormSubmits(walked, kept, submitsBelow);
}

/** The form a submit button sends (its `form` property covers form="…"), or null. */
function formOfSubmit(el: Element): HTMLFormElement | null {
  const tag = el.tagName;
  if (tag !== 'BUTTON' && tag !== 'INPUT') return null;
  const type = (el.getAttribute('type') ?? (tag === 'BUTTON' ? 'submit' : 'text')).toLowerCase();
  if (type !== 'submit' && type !== 'image') return null;
  return (el as HTMLButtonElement).form ?? null;
}

/**
 * A form whose fields are in view keeps its submit button in the tree even when the button is
 * below the fold: the agent can then fill the form and send it in one chain (clicking scrolls
 * it into view), instead of a round trip to scroll down first. Tree order is kept.
 */
function withFormSubmits(walked: WalkResult, kept: Kept[], submitsBelow: Kept[]): Kept[] {
  if (submitsBelow.length === 0) return kept;
  const formsInView = new Set<Element>();
  for (const k of kept) {
    const form = (k.candidate.el as HTMLInputElement).form as HTMLFormElement | null | undefined;
    if (form && !formOfSubmit(k.candidate.el)) formsInView.add(form);
  }
  const added = submitsBelow.filter((k) => {
    const form = formOfSubmit(k.candidate.el);
    return form !== null && formsInView.has(form) && isRendered(k.candidate.el);
  });
  if (added.length === 0) return kept;
  const order = new Map(walked.candidates.map((c, i) => [c, i]));
  return [...kept, ...added].sort(
    (a, b) => (order.get(a.candidate) ?? 0) - (order.get(b.candidate) ?? 0),
  );
}

function visiblePart(k: Kept, viewportRect: Rect): Rect | null {
  let visible = intersection(k.rect, viewportRect);
  if (visible && k.candidate.frame.clip) visible = intersection(visible, k.candidate.frame.clip);
  if (visible && k.clip) visible = intersection(visible, k.clip.rect);
  return visible;
}

function containerName(el: Element): string {
  return (el.getAttribute('aria-label') ?? el.getAttribute('id') ?? '').slice(0, 60);
}

export function collect(doc: Document, options: CollectOptions): Collected {
  const top = topFrame(doc);
  const registry = registryFor(top.win);
  const walked = walk(top, {
    layout: true,
    frames: options.frames,
    frameNumber: (iframe) => frameNumberOf(registry, iframe),
  });

  const root = doc.documentElement;
  const width = root.clientWidth || top.win.innerWidth;
  const height = root.clientHeight || top.win.innerHeight;
  const viewportRect: Rect = { x: 0, y: 0, w: width, h: height };
  const margin = options.viewportMargin * height;
  const bounds = options.includeOffscreen ? null : expandVertically(viewportRect, margin);

  const clips = new ClipFinder();
  const kept = keepCandidates(walked, bounds, margin, clips);

  const nameContext: NameContext = { labels: walked.labels, maxLength: options.maxNameLength };
  const focused = deepActiveElement(doc);
  const described = kept.map(({ candidate, rect, clip }) => {
    const { el, tag, role } = candidate;
    return {
      candidate,
      rect,
      clip,
      name: accessibleName(el, tag, role, nameContext),
      value: valueOf(el, tag, role, options.maxValueLength),
      state: statesOf(el, tag, role, el === focused),
      leadsTo: role === 'link' || role === 'btn' ? foreignSiteOf(el) : null,
    };
  });

  const occluded = described.map((d) => {
    if (!options.occlusion) return false;
    const visible = visiblePart(d, viewportRect);
    if (!visible) return false;
    const [x, y] = center(visible);
    return occluderAt(d.candidate.el, d.candidate.frame, x, y) !== null;
  });

  const containerHits = visibleContainers(clips.containers, bounds);
  const paths = new PathBuilder();
  const requests: IdRequest[] = described.map((d) => {
    const frame = d.candidate.frame.number;
    const path = paths.pathOf(d.candidate.el);
    return {
      el: d.candidate.el,
      fingerprint: fingerprintOf(frame, d.candidate.role, d.name, path),
      role: d.candidate.role,
      name: d.name,
      nameLength: options.maxNameLength,
      frame,
    };
  });
  const containerNames = containerHits.map((c) => containerName(c.el));
  containerHits.forEach((c, i) => {
    requests.push({
      el: c.el,
      fingerprint: fingerprintOf(
        c.frame.number,
        'scroll',
        containerNames[i] ?? '',
        paths.pathOf(c.el),
      ),
      role: 'scroll',
      name: containerNames[i] ?? '',
      nameLength: options.maxNameLength,
      frame: c.frame.number,
    });
  });

  // Scroll metrics are read before the id writes below so layout stays clean throughout.
  const containerMetrics = containerHits.map((c) => ({
    depth: scrollDepth(c.el.scrollTop, c.el.scrollHeight, c.el.clientHeight),
    scrollHeight: c.el.scrollHeight,
    hasMore: c.el.scrollTop + c.el.clientHeight < c.el.scrollHeight - 2,
  }));

  const sentinel = options.recentMessages
    ? runSentinel(
        walked.sentinels,
        described.map((d) => ({
          el: d.candidate.el,
          role: d.candidate.role,
          name: d.name,
          state: d.state,
        })),
        options.recentMessages,
      )
    : null;

  const ids = assignIds(registry, requests, walked.maxNumericId);

  const containers: CollectedContainer[] = containerHits.map((c, i) => {
    const metrics = containerMetrics[i] ?? { depth: '0%', scrollHeight: 0, hasMore: false };
    return {
      el: c.el,
      id: ids[described.length + i] ?? '',
      name: containerNames[i] ?? '',
      rect: c.rect,
      ...metrics,
    };
  });
  const scrollByElement = new Map(containers.map((c) => [c.el, c]));

  const nodes: CollectedNode[] = described.map((d, i) => {
    const container = scrollByElement.get(d.candidate.el);
    return {
      el: d.candidate.el,
      id: ids[i] ?? '',
      role: d.candidate.role,
      name: d.name,
      value: d.value,
      state: d.state,
      rect: d.rect,
      frame: d.candidate.frame.number,
      occluded: occluded[i] ?? false,
      scroll: container
        ? { depth: container.depth, h: Math.round(container.scrollHeight) }
        : undefined,
      leadsTo: d.leadsTo,
    };
  });

  return {
    doc,
    nodes,
    containers,
    walk: walked,
    sentinel,
    viewport: { width: top.win.innerWidth || width, height: top.win.innerHeight || height },
    viewportRect,
  };
}

function visibleContainers(hits: ScrollContainerHit[], bounds: Rect | null): ScrollContainerHit[] {
  const visible = hits.filter(
    (c) => c.rect.w > 0 && c.rect.h > 0 && (!bounds || intersects(c.rect, bounds)),
  );
  if (visible.length <= MAX_CONTAINERS) return visible;
  // Keep the biggest: they are the page's main scrollers, not a nested dropdown.
  const biggest = new Set(
    [...visible].sort((a, b) => b.rect.w * b.rect.h - a.rect.w * a.rect.h).slice(0, MAX_CONTAINERS),
  );
  return visible.filter((c) => biggest.has(c));
}
