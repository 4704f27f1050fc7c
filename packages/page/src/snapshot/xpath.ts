// Semantic xpaths (docs/specs.md, "semantic xpaths"): `/main/article/section.content/h2[2]`.
//
// A path lists only the "meaningful" elements between the body and the target: semantic tags
// (sectioning ones qualified by a semantic class), and generic containers (div, custom
// elements) that carry a hand-written id or an outline role. Bare wrappers are skipped, so `/main/section.intro` matches a section
// however many anonymous divs sit between it and main. A step's siblings are the meaningful
// elements that share its meaningful parent; `[n]` is added only when more than one of them
// matches the step. The resolver walks the same structure, so what the outline prints, the
// resolver finds (the property test over data/pages-dev checks it).
//
// Meaningfulness depends on the element alone (never on visibility or layout), so server and
// browser, before and after a style change, compute the same paths.
import { semanticClassOf, semanticIdOf } from './xpath-tokens';

const SEMANTIC_TAGS = new Set([
  'main',
  'article',
  'section',
  'nav',
  'header',
  'footer',
  'aside',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'ul',
  'ol',
  'dl',
  'li',
  'pre',
  'blockquote',
  'figure',
  'table',
  'form',
  'details',
  'dialog',
  'address',
  'search',
  'menu',
]);

/** Roles that make a generic container worth a step when it has no id or class to show. */
const STEP_ROLES = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'region',
  'article',
  'heading',
  'list',
  'listitem',
  'paragraph',
  'figure',
  'table',
  'grid',
  'search',
  'feed',
]);

/** Never part of the content tree, and never descended into. */
export const NON_CONTENT_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'base',
]);

const isGeneric = (tag: string): boolean => tag === 'div' || tag.includes('-');

/**
 * Tags whose class is worth showing (`section.intro`). Headings, paragraphs and list items keep
 * bare tags (`h2`, `p`) unless they have an id: CMS classes on them ("wp-block-heading",
 * "elementor-heading-title") only lengthen paths.
 */
const CLASS_QUALIFIED_TAGS = new Set([
  'main',
  'article',
  'section',
  'nav',
  'header',
  'footer',
  'aside',
  'figure',
  'table',
  'form',
  'details',
  'dialog',
  'search',
]);

/**
 * The step an element contributes to xpaths, or null when it is skipped. Generic containers
 * (div, custom elements) count only with a hand-written id or an outline role: page builders
 * nest a dozen classed divs around every block, and a path through all of them says nothing.
 */
export function stepOf(el: Element): string | null {
  const tag = el.localName;
  const semantic = SEMANTIC_TAGS.has(tag);
  if (!semantic && !isGeneric(tag)) return null;
  if (!el.hasAttributes()) return semantic ? tag : null;
  const id = semanticIdOf(el.getAttribute('id'));
  if (id) return `${tag}#${id}`;
  if (semantic) {
    const cls = CLASS_QUALIFIED_TAGS.has(tag)
      ? semanticClassOf(el.getAttribute('class'))
      : undefined;
    return cls ? `${tag}.${cls}` : tag;
  }
  const role = el.getAttribute('role');
  return role && STEP_ROLES.has(role) ? `${tag}[role=${role}]` : null;
}

export interface Step {
  tag: string;
  id?: string;
  cls?: string;
  role?: string;
  /** 1-based position among matching siblings. */
  index?: number;
}

const STEP_PATTERN =
  /^([a-z][a-z0-9-]*)(?:#([A-Za-z][\w-]*)|\.([A-Za-z][\w-]*)|\[role=([a-z]+)\])?(?:\[(\d+)\])?$/;

/** Parses `section.intro[2]`; undefined when the text is not a step. */
export function parseStep(text: string): Step | undefined {
  const match = STEP_PATTERN.exec(text);
  if (!match) return undefined;
  const [, tag, id, cls, role, index] = match;
  const step: Step = { tag: tag as string };
  if (id) step.id = id;
  if (cls) step.cls = cls;
  if (role) step.role = role;
  if (index) step.index = Number(index);
  return step;
}

export const joinXpath = (parent: string, step: string): string =>
  parent === '/' ? `/${step}` : `${parent}/${step}`;

/** Removes every `[n]`: the shape shared by repeated siblings ("/main/ul/li/h3"). */
export const xpathShape = (xpath: string): string => xpath.replace(/\[\d+\]/g, '');

/** The element xpaths start from. */
export const xpathRoot = (doc: Document): Element => doc.body ?? doc.documentElement;

/** Meaningful children of one parent that share a tag, indexed by what a step can require. */
interface TagGroup {
  all: Element[];
  byId?: Map<string, Element[]>;
  byClass?: Map<string, Element[]>;
  byRole?: Map<string, Element[]>;
}

/** The class tokens `classList` holds: split on ASCII whitespace, each once. */
const CLASS_SEPARATOR = /[\t\n\f\r ]+/;

function groupBy(
  elements: readonly Element[],
  keys: (el: Element) => Iterable<string>,
): Map<string, Element[]> {
  const groups = new Map<string, Element[]>();
  for (const el of elements) {
    for (const key of keys(el)) {
      const group = groups.get(key);
      if (group) group.push(el);
      else groups.set(key, [el]);
    }
  }
  return groups;
}

const attributeKey =
  (name: string) =>
  (el: Element): string[] => {
    const value = el.getAttribute(name);
    return value === null ? [] : [value];
  };

const classKeys = (el: Element): Set<string> => {
  const tokens = new Set((el.getAttribute('class') ?? '').split(CLASS_SEPARATOR));
  tokens.delete('');
  return tokens;
};

const EMPTY: readonly Element[] = [];

/**
 * Computes xpaths with caches shared by one snapshot: siblings share their parent's path and
 * its list of meaningful children, so the whole outline costs one pass over the DOM. Sibling
 * lists are grouped by tag and by id, class or role once per parent, so a parent with hundreds
 * of distinct steps (headings with ids, sections) costs no more than one with a single step.
 */
export class XpathBuilder {
  private readonly steps = new Map<Element, string | null>();
  private readonly children = new Map<Element, Element[]>();
  private readonly paths = new Map<Element, string>();
  private readonly tagGroups = new Map<Element, Map<string, TagGroup>>();
  private readonly matching = new Map<Element, Map<string, readonly Element[]>>();
  private readonly positions = new WeakMap<readonly Element[], Map<Element, number>>();
  private readonly parents = new Map<Element, Element | null>();
  readonly root: Element;

  constructor(doc: Document) {
    this.root = xpathRoot(doc);
  }

  step(el: Element): string | null {
    let step = this.steps.get(el);
    if (step === undefined) {
      step = el === this.root ? null : stepOf(el);
      this.steps.set(el, step);
    }
    return step;
  }

  /** The nearest ancestor with a step, or the root; null outside the root. */
  parentOf(el: Element): Element | null {
    let parent = this.parents.get(el);
    if (parent !== undefined) return parent;
    parent = null;
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node === this.root || this.step(node) !== null) {
        parent = node;
        break;
      }
    }
    this.parents.set(el, parent);
    return parent;
  }

  /** Elements whose nearest meaningful ancestor is `parent`, in document order. */
  meaningfulChildren(parent: Element): Element[] {
    let list = this.children.get(parent);
    if (list) return list;
    const found: Element[] = [];
    const visit = (node: Element): void => {
      for (let child = node.firstElementChild; child; child = child.nextElementSibling) {
        if (NON_CONTENT_TAGS.has(child.localName)) continue;
        if (this.step(child) !== null) found.push(child);
        else visit(child);
      }
    };
    visit(parent);
    list = found;
    this.children.set(parent, list);
    return list;
  }

  private tagGroup(parent: Element, tag: string): TagGroup | undefined {
    let byTag = this.tagGroups.get(parent);
    if (!byTag) {
      byTag = new Map();
      for (const child of this.meaningfulChildren(parent)) {
        const group = byTag.get(child.localName);
        if (group) group.all.push(child);
        else byTag.set(child.localName, { all: [child] });
      }
      this.tagGroups.set(parent, byTag);
    }
    return byTag.get(tag);
  }

  /**
   * The meaningful children of `parent` that a step (without its `[n]`) names, in document
   * order. Like a CSS compound selector: `p` matches `p.lead`, `div.content` any div with that
   * class token. Building xpaths and resolving them both ask here, so the two cannot disagree;
   * answered by lookup in per-parent groups, cached per step text.
   */
  private siblingsMatching(parent: Element, step: string): readonly Element[] {
    let byStep = this.matching.get(parent);
    if (!byStep) {
      byStep = new Map();
      this.matching.set(parent, byStep);
    }
    let same = byStep.get(step);
    if (!same) {
      const parsed = parseStep(step);
      const group = parsed && this.tagGroup(parent, parsed.tag);
      if (!parsed || !group) same = EMPTY;
      else if (parsed.id !== undefined) {
        group.byId ??= groupBy(group.all, attributeKey('id'));
        same = group.byId.get(parsed.id) ?? EMPTY;
      } else if (parsed.cls !== undefined) {
        group.byClass ??= groupBy(group.all, classKeys);
        same = group.byClass.get(parsed.cls) ?? EMPTY;
      } else if (parsed.role !== undefined) {
        group.byRole ??= groupBy(group.all, attributeKey('role'));
        same = group.byRole.get(parsed.role) ?? EMPTY;
      } else same = group.all;
      byStep.set(step, same);
    }
    return same;
  }

  /** 1-based position of `el` among `siblings`; one index per list, not a scan per element. */
  private positionIn(siblings: readonly Element[], el: Element): number {
    let index = this.positions.get(siblings);
    if (!index) {
      index = new Map(siblings.map((sibling, i) => [sibling, i + 1]));
      this.positions.set(siblings, index);
    }
    return index.get(el) ?? 0;
  }

  /** The xpath of a meaningful element (or the root, "/"); undefined for a bare wrapper. */
  xpathOf(el: Element): string | undefined {
    if (el === this.root) return '/';
    const cached = this.paths.get(el);
    if (cached !== undefined) return cached;
    const step = this.step(el);
    const parent = this.parentOf(el);
    if (step === null || parent === null) return undefined;
    const parentPath = this.xpathOf(parent);
    if (parentPath === undefined) return undefined;
    const same = this.siblingsMatching(parent, step);
    const path = joinXpath(
      parentPath,
      same.length > 1 ? `${step}[${this.positionIn(same, el)}]` : step,
    );
    this.paths.set(el, path);
    return path;
  }

  /** Every element an xpath names (several when a step has no index and siblings repeat). */
  resolve(xpath: string): Element[] {
    const trimmed = xpath.trim();
    if (trimmed === '/' || trimmed === '') return [this.root];
    if (!trimmed.startsWith('/')) return [];
    let context: Element[] = [this.root];
    for (const text of trimmed.slice(1).split('/')) {
      const step = parseStep(text);
      if (!step) return [];
      const unindexed = xpathShape(text);
      const next: Element[] = [];
      for (const parent of context) {
        const same = this.siblingsMatching(parent, unindexed);
        if (step.index === undefined) next.push(...same);
        else {
          const picked = same[step.index - 1];
          if (picked) next.push(picked);
        }
      }
      if (next.length === 0) return [];
      context = next;
    }
    return context;
  }
}

/** The elements an xpath from an outline names in `doc`. */
export function resolveXpath(doc: Document, xpath: string): Element[] {
  return new XpathBuilder(doc).resolve(xpath);
}
