// DOM similarity (docs/specs.md, "dynamic re-planning"): is the page after an action still the page
// the plan was made for? Jaccard similarity on element signatures, interactive elements
// weighted 40% and structural ones 60%, and the re-planning trigger built on it: a URL path
// change or a similarity below 70%. Pure and deterministic: it runs on every verified step,
// so it must cost no tokens and give the same answer for the same two pages.
//
// Why sets and not multisets: plan steps name their targets ("Click 'Edit'"), and a name
// that occurs three times or thirty times supports the same steps. Counting copies would let
// one repeated control (an "Edit" button per table row, an "Add to cart" per product in an
// infinite scroll) swamp the score, so loading more rows would look like a new page. Rows
// with distinct names (patients, products) are distinct signatures and still count.
import { KNOWN_NODE_ROLES, type SemanticNodeV3 } from '@tandem/contracts';

export const INTERACTIVE_WEIGHT = 0.4;
export const STRUCTURAL_WEIGHT = 0.6;
/** Below this similarity the page counts as changed (spec: "DOM similarity < 70%"). */
export const DEFAULT_REPLAN_THRESHOLD = 0.7;

// Clients may send full ARIA roles instead of the contract's codes ("r accepts any short
// string"); mapping them to the code keeps a `button` and a `btn` from looking different.
const ROLE_ALIASES: Readonly<Record<string, string>> = {
  button: 'btn',
  textbox: 'inp',
  searchbox: 'inp',
  spinbutton: 'inp',
  textarea: 'txt',
  checkbox: 'chk',
  menuitemcheckbox: 'chk',
  menuitemradio: 'radio',
  combobox: 'combo',
  listbox: 'sel',
  select: 'sel',
  option: 'opt',
  menuitem: 'menu',
  switch: 'sw',
  slider: 'sld',
};

// The contract's codes plus the page package's pass-throughs (`file`, `treeitem`).
const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  ...Object.keys(KNOWN_NODE_ROLES),
  'file',
  'treeitem',
]);

// Live regions report the outcome of the last action ("Patient saved", a spinner); they are
// verification's business. Counting them as structure would make every successful save look
// like a new page. A dialog (`dialog`, `alertdialog`) is real structure and does count.
const TRANSIENT_ROLES: ReadonlySet<string> = new Set([
  'status',
  'alert',
  'log',
  'marquee',
  'timer',
  'tooltip',
  'progressbar',
]);

// Signatures only need to tell names apart; a 2,000-character paragraph must not become a
// 2 KB set key.
const NAME_SIGNATURE_LENGTH = 120;

const normaliseRole = (role: string) => {
  const r = role.trim().toLowerCase();
  return ROLE_ALIASES[r] ?? r;
};

/** Whether a role code (or ARIA role) is something a user acts on rather than reads. */
export const isInteractiveRole = (role: string) => INTERACTIVE_ROLES.has(normaliseRole(role));

/**
 * Lower-cased, accents and punctuation dropped, digit runs as "#": "Inbox (3)" and "Inbox (4)",
 * "Saving…" and "Saving", "Patients ▾" and "Patients" are the same control after a re-render.
 */
function normaliseName(name: string | undefined): string {
  if (!name) return '';
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\p{N}+/gu, '#')
    .replace(/[^\p{L}#]+/gu, ' ')
    .trim()
    .slice(0, NAME_SIGNATURE_LENGTH);
}

/**
 * `role:name`, e.g. `btn:save` or `inp:first name`. The id (`i`) is left out because it is
 * the page package's bookkeeping: a re-render may number the same elements differently.
 * The value (`v`), states (`s`), occlusion and geometry are left out because they change
 * while the user works on the same page: typing "Jas" into First name, ticking a box,
 * expanding a menu or a dialog covering the form must not make the page look different.
 * What a dialog adds (its own buttons and fields) does count.
 */
export function elementSignature(node: SemanticNodeV3): string {
  return `${normaliseRole(node.r)}:${normaliseName(node.n)}`;
}

/** Set Jaccard; two empty sets are identical (1). */
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const s of a) if (b.has(s)) common += 1;
  return common / (a.size + b.size - common);
}

function signatureSets(tree: readonly SemanticNodeV3[]) {
  const interactive = new Set<string>();
  const structural = new Set<string>();
  for (const node of tree) {
    const role = normaliseRole(node.r);
    if (TRANSIENT_ROLES.has(role)) continue;
    (INTERACTIVE_ROLES.has(role) ? interactive : structural).add(elementSignature(node));
  }
  return { interactive, structural };
}

export interface DomSimilarity {
  /** Weighted score in [0, 1]; 1 = the same page. */
  score: number;
  /** Jaccard of the interactive signatures (1 when neither tree has any). */
  interactive: number;
  /** Jaccard of the structural signatures (1 when neither tree has any). */
  structural: number;
}

/**
 * 0.4 × interactive Jaccard + 0.6 × structural Jaccard. A part that neither tree has is
 * left out and the weights renormalise over the parts present: the V3 trees the extension
 * sends are all interactive, and scoring their missing structure as "identical" would pin
 * every score at ≥ 0.6, so no interactive change could ever reach the 0.7 trigger. A part
 * that only one tree has is present and scores 0 (a dialog appearing on a page that had no
 * structure is a structural change). Both trees empty → 1.
 */
export function domSimilarity(
  before: readonly SemanticNodeV3[],
  after: readonly SemanticNodeV3[],
): DomSimilarity {
  const a = signatureSets(before);
  const b = signatureSets(after);
  const interactive = jaccard(a.interactive, b.interactive);
  const structural = jaccard(a.structural, b.structural);
  const hasInteractive = a.interactive.size > 0 || b.interactive.size > 0;
  const hasStructural = a.structural.size > 0 || b.structural.size > 0;
  const weight =
    (hasInteractive ? INTERACTIVE_WEIGHT : 0) + (hasStructural ? STRUCTURAL_WEIGHT : 0);
  if (weight === 0) return { score: 1, interactive, structural };
  const weighted =
    (hasInteractive ? INTERACTIVE_WEIGHT * interactive : 0) +
    (hasStructural ? STRUCTURAL_WEIGHT * structural : 0);
  return { score: weighted / weight, interactive, structural };
}

/**
 * Origin + pathname. The query and the hash are left out: the query carries the search
 * terms, filters, sort and page number of the same view (a patient search is still the
 * search page), and the hash carries in-page anchors and widget state. Counting them would
 * re-plan on every search or filter. A real view change that lives there (a hash-routed SPA)
 * also replaces the DOM, so the similarity check still catches it.
 */
export function urlPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    // Not an absolute URL (the contract requires one; a test or a legacy client may not).
    return url.split(/[?#]/, 1)[0] ?? url;
  }
}

export type ReplanReason = 'url_path_changed' | 'dom_changed';

export interface ReplanTrigger {
  replan: boolean;
  reason: ReplanReason | null;
  /** The weighted DOM similarity score, reported even when the URL decided. */
  similarity: number;
}

/**
 * Re-plan when the URL path changed or the DOM similarity is below the threshold (0.7).
 * `previousUrl` null (the client did not send one) skips the URL check only. `before` is the
 * previous page's tree: an empty array means that page had no elements, not "unknown", so
 * the caller does not call this on the first step of a task.
 */
export function replanTrigger(input: {
  previousUrl: string | null;
  url: string;
  before: readonly SemanticNodeV3[];
  after: readonly SemanticNodeV3[];
  threshold?: number;
}): ReplanTrigger {
  const threshold = input.threshold ?? DEFAULT_REPLAN_THRESHOLD;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new RangeError(`replan threshold must be in [0, 1], got ${threshold}`);
  }
  const similarity = domSimilarity(input.before, input.after).score;
  if (input.previousUrl !== null && urlPath(input.previousUrl) !== urlPath(input.url)) {
    return { replan: true, reason: 'url_path_changed', similarity };
  }
  if (similarity < threshold) return { replan: true, reason: 'dom_changed', similarity };
  return { replan: false, reason: null, similarity };
}
