// The single pass over the DOM. It reads attributes only, plus one rect per iframe; it never
// writes, so layout is computed at most once per capture.
//
// It recurses over element children instead of using a TreeWalker: the recursion carries the
// frame context down and steps into shadow roots and iframe documents where they occur.
import { frameDocument, isValidLlmId, LLM_ID_ATTRIBUTE } from '../dom/elements';
import type { FrameContext } from '../dom/frames';
import { childFrame } from '../dom/frames';
import type { LabelIndex } from './names';
import { roleCodeOf } from './roles';
import type { MessageKind } from './sentinel-classes';
import { messageKindOfClass } from './sentinel-classes';

export interface Candidate {
  el: Element;
  tag: string;
  role: string;
  frame: FrameContext;
}

export interface SentinelHit {
  el: Element;
  /** What marked it: a live region/alert role, or a class. */
  source: 'alert' | 'status' | 'class';
  kind: MessageKind | undefined;
}

export interface WalkOptions {
  /** Read iframe offsets (false for a re-find walk, which needs no geometry). */
  layout: boolean;
  frames: boolean;
  frameNumber: (iframe: Element) => number;
}

export interface WalkResult {
  candidates: Candidate[];
  labels: LabelIndex;
  sentinels: SentinelHit[];
  frames: FrameContext[];
  /** Highest numeric data-llm-id seen, so new ids never collide with ones already on the page. */
  maxNumericId: number;
}

const SKIP_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'HEAD',
  'META',
  'LINK',
  'BR',
  'WBR',
  'DATALIST',
  'OPTION',
  'OPTGROUP',
]);

/** Candidates whose children are part of the control, not separate targets. */
const OPAQUE_TAGS = new Set([
  'SELECT',
  'TEXTAREA',
  'svg',
  'math',
  'MATH',
  'CANVAS',
  'VIDEO',
  'AUDIO',
]);

const ALERT_ROLES = new Set(['alert', 'alertdialog']);
const STATUS_ROLES = new Set(['status', 'log']);

class Walker {
  readonly result: WalkResult = {
    candidates: [],
    labels: new Map(),
    sentinels: [],
    frames: [],
    maxNumericId: 0,
  };

  constructor(private readonly options: WalkOptions) {}

  walkFrame(frame: FrameContext): void {
    this.result.frames.push(frame);
    const root = frame.doc.documentElement;
    if (root) this.visit(root, frame);
  }

  private children(parent: ParentNode, frame: FrameContext): void {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      this.visit(child, frame);
    }
  }

  private visit(el: Element, frame: FrameContext): void {
    const tag = el.tagName;
    if (SKIP_TAGS.has(tag)) return;
    // Most elements of a page carry no attribute at all: one call answers every check below.
    const hasAttributes = el.hasAttributes();
    let roleAttribute: string | null = null;
    if (hasAttributes) {
      // `hidden` content is not rendered and `inert` content cannot be used. aria-hidden is not
      // a reason to skip: sites put it on visible, clickable navigation, and under a modal
      // the background is aria-hidden yet still there (reported as occluded).
      if (el.hasAttribute('hidden') || el.hasAttribute('inert')) return;
      roleAttribute = el.getAttribute('role');
    }

    const role = roleCodeOf(el, tag, roleAttribute, hasAttributes);
    if (role) this.result.candidates.push({ el, tag, role, frame });

    if (hasAttributes) {
      const existingId = el.getAttribute(LLM_ID_ATTRIBUTE);
      if (existingId !== null && isValidLlmId(existingId)) {
        const numeric = Number(existingId);
        if (Number.isInteger(numeric) && numeric > this.result.maxNumericId) {
          this.result.maxNumericId = numeric;
        }
      }
      if (tag === 'LABEL') this.indexLabel(el);
      this.checkSentinel(el, role, roleAttribute);
    }

    if ((tag === 'IFRAME' || tag === 'FRAME') && this.options.frames) {
      const doc = frameDocument(el);
      if (doc) {
        const child = childFrame(frame, el, doc, this.options.frameNumber(el), this.options.layout);
        if (child) this.walkFrame(child);
      }
      return;
    }
    if (OPAQUE_TAGS.has(tag)) return;

    const shadow = el.shadowRoot;
    if (shadow) this.children(shadow, frame);
    this.children(el, frame);
  }

  private indexLabel(label: Element): void {
    const target = label.getAttribute('for');
    if (!target) return;
    const scope = label.getRootNode();
    let byId = this.result.labels.get(scope);
    if (!byId) {
      byId = new Map();
      this.result.labels.set(scope, byId);
    }
    // The first label wins, as for HTMLInputElement.labels[0].
    if (!byId.has(target)) byId.set(target, label);
  }

  private checkSentinel(el: Element, role: string | undefined, ariaRole: string | null): void {
    if (ariaRole && ALERT_ROLES.has(ariaRole)) {
      this.result.sentinels.push({ el, source: 'alert', kind: undefined });
      return;
    }
    const live = el.getAttribute('aria-live');
    if ((ariaRole && STATUS_ROLES.has(ariaRole)) || (live && live !== 'off')) {
      this.result.sentinels.push({ el, source: 'status', kind: undefined });
      return;
    }
    // Buttons styled as "danger" or "success" are controls, not messages.
    if (role) return;
    const classes = el.getAttribute('class');
    if (!classes) return;
    const kind = messageKindOfClass(classes);
    if (kind) this.result.sentinels.push({ el, source: 'class', kind });
  }
}

export function walk(top: FrameContext, options: WalkOptions): WalkResult {
  const walker = new Walker(options);
  walker.walkFrame(top);
  return walker.result;
}
