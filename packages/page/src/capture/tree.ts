// captureTree: the V3 semantic tree (docs/specs.md, "V3 Semantic Extraction").
import type { ScrollableContainer, SemanticNodeV3 } from '@tandem/contracts';
import { center, roundRect } from '../dom/geometry';
import { scrollDepth } from '../dom/text';
import type { CaptureOptions, CaptureResult } from '../types';
import type { Collected, CollectedNode, CollectOptions } from './collect';
import { collect } from './collect';
import type { RecentActivity } from './events';
import { takeRecentActivity } from './events';
import { viewportContentOf } from './viewport-content';

export const CAPTURE_DEFAULTS = {
  viewportMargin: 0.25,
  includeOffscreen: false,
  includeBox: false,
  occlusion: true,
  frames: true,
  maxNameLength: 80,
  maxValueLength: 200,
} as const;

export function collectOptions(
  options: CaptureOptions,
  recentMessages: CollectOptions['recentMessages'],
): CollectOptions {
  return {
    viewportMargin: options.viewportMargin ?? CAPTURE_DEFAULTS.viewportMargin,
    includeOffscreen: options.includeOffscreen ?? CAPTURE_DEFAULTS.includeOffscreen,
    occlusion: options.occlusion ?? CAPTURE_DEFAULTS.occlusion,
    frames: options.frames ?? CAPTURE_DEFAULTS.frames,
    maxNameLength: options.maxNameLength ?? CAPTURE_DEFAULTS.maxNameLength,
    maxValueLength: options.maxValueLength ?? CAPTURE_DEFAULTS.maxValueLength,
    recentMessages,
  };
}

/** Minified node; keys are only present when they carry information. */
export function toV3Node(node: CollectedNode, includeBox: boolean): SemanticNodeV3 {
  const out: SemanticNodeV3 = { i: node.id, r: node.role };
  if (node.name) out.n = node.name;
  if (node.value !== undefined) out.v = node.value;
  if (node.state) out.s = node.state;
  const [x, y] = center(node.rect);
  out.xy = [Math.round(x), Math.round(y)];
  if (node.frame !== 0) out.f = node.frame;
  if (includeBox) out.box = roundRect(node.rect);
  if (node.scroll) out.scr = node.scroll;
  if (node.occluded) out.occ = true;
  if (node.leadsTo) out.h = node.leadsTo;
  return out;
}

function containersOf(collected: Collected): ScrollableContainer[] {
  return collected.containers.map((c) => {
    const out: ScrollableContainer = {
      id: c.id,
      depth: c.depth,
      h: Math.round(c.scrollHeight),
      hasMore: c.hasMore,
    };
    if (c.name) out.n = c.name;
    return out;
  });
}

function pageScroll(doc: Document): string {
  const scroller = doc.scrollingElement ?? doc.documentElement;
  return scrollDepth(scroller.scrollTop, scroller.scrollHeight, scroller.clientHeight);
}

/** The fields shared by every mode that sends a tree. */
export function pageFields(
  collected: Collected,
  recentEvents: string[],
): Omit<CaptureResult, 'interactiveTree'> {
  const doc = collected.doc;
  const sentinel = collected.sentinel ?? {
    hasErrors: false,
    hasSuccess: false,
    errors_detected: [],
    success_messages: [],
  };
  return {
    viewport: collected.viewport,
    viewportContent: viewportContentOf(doc, collected.viewport),
    pageTitle: doc.title,
    url: doc.defaultView?.location.href ?? doc.URL,
    scrollPosition: pageScroll(doc),
    scrollableContainers: containersOf(collected),
    recentEvents,
    ...sentinel,
  };
}

/**
 * Captures the interactive elements near the viewport with stable ids, plus the V3 advanced
 * fields. Synchronous: it never waits for the page (call waitForStability first).
 */
export function captureTree(options: CaptureOptions = {}): CaptureResult {
  return captureTreeWith(options, takeRecentActivity(options.document ?? document));
}

/** captureTree with the mutation activity already drained (mode fallbacks reuse it). */
export function captureTreeWith(options: CaptureOptions, activity: RecentActivity): CaptureResult {
  const doc = options.document ?? document;
  const collected = collect(doc, collectOptions(options, activity.messages));
  const includeBox = options.includeBox ?? CAPTURE_DEFAULTS.includeBox;
  return {
    interactiveTree: collected.nodes.map((node) => toV3Node(node, includeBox)),
    ...pageFields(collected, activity.events),
  };
}
