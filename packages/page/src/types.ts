// Public option and result types of @tandem/page.
import type {
  ScrollableContainer,
  SemanticNodeV3,
  Viewport,
  ViewportContent,
} from '@tandem/contracts';

export interface CaptureOptions {
  /** Band kept above and below the viewport, in viewport heights. Default 0.25. */
  viewportMargin?: number;
  /** Keep every rendered element, not only those near the viewport. Default false. */
  includeOffscreen?: boolean;
  /**
   * Send `box` ([x, y, w, h]) besides `xy`. Default false: it adds about 40% to the tree's
   * tokens (bench/page) and `xy` is enough to act on an element.
   */
  includeBox?: boolean;
  /** Hit-test in-viewport elements to set `occ`. Default true. */
  occlusion?: boolean;
  /** Walk same-origin iframes. Default true. */
  frames?: boolean;
  /** Cap for names (`n`). Default 80. */
  maxNameLength?: number;
  /** Cap for values (`v`). Default 200. */
  maxValueLength?: number;
  /** Document to capture; default the current one. */
  document?: Document;
}

/**
 * What `captureTree` returns: the V3 request fields (docs/specs.md, "V3 Semantic Extraction"),
 * ready to spread into an InteractRequest next to `domMode: "semantic_v3"`.
 */
export interface CaptureResult {
  interactiveTree: SemanticNodeV3[];
  viewport: Viewport;
  /** What the viewport shows besides the tree: canvases, images, amount of text. */
  viewportContent: ViewportContent;
  pageTitle: string;
  url: string;
  scrollPosition: string;
  scrollableContainers: ScrollableContainer[];
  recentEvents: string[];
  hasErrors: boolean;
  hasSuccess: boolean;
  /** Absent when the page showed neither an error nor a success message. */
  verification_passed?: boolean;
  errors_detected: string[];
  success_messages: string[];
}

/** The non-minified node of the legacy `semantic` mode. */
export interface SemanticNode {
  id: string;
  role: string;
  name: string;
  value?: string;
  state?: string;
}
