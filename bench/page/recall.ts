// Recall against Playwright: of the clickable elements Playwright's AI-mode aria snapshot
// lists inside the viewport, how many the V3 tree also exposes (same role family and name,
// or overlapping boxes).

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface AriaTarget {
  role: string;
  name: string;
  box: Box;
  /** Playwright's ref (`e12`), usable as `page.locator('aria-ref=e12')`. */
  ref: string | undefined;
}

export interface V3Like {
  r: string;
  n?: string;
  box?: [number, number, number, number];
}

/** Playwright roles a user acts on, and the V3 codes that stand for them. */
const ROLE_CODES: Record<string, string[]> = {
  button: ['btn', 'sw', 'tab', 'menu', 'link'],
  link: ['link', 'btn'],
  textbox: ['inp', 'txt', 'edit', 'combo'],
  searchbox: ['inp', 'combo'],
  spinbutton: ['inp'],
  checkbox: ['chk', 'sw'],
  radio: ['radio'],
  combobox: ['sel', 'combo', 'inp'],
  listbox: ['sel'],
  option: ['opt'],
  menuitem: ['menu', 'btn', 'link'],
  menuitemcheckbox: ['chk', 'menu'],
  menuitemradio: ['radio', 'menu'],
  tab: ['tab', 'btn', 'link'],
  switch: ['sw', 'chk', 'btn'],
  slider: ['sld'],
  treeitem: ['treeitem', 'link', 'btn'],
};

const LINE = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
const BOX = /\[box=(-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\]/;
const REF = /\[ref=([a-z0-9]+)\]/;

/** Clickable entries of an AI-mode snapshot taken with boxes, in the top frame only. */
export function parseAriaTargets(snapshot: string): AriaTarget[] {
  const targets: AriaTarget[] = [];
  for (const line of snapshot.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, role = '', rawName = '', rest = ''] = match;
    if (!ROLE_CODES[role]) continue;
    const ref = REF.exec(rest)?.[1];
    // Refs inside iframes are "f1e2": their boxes are in the frame's coordinates.
    if (ref && /^f\d/.test(ref)) continue;
    const box = BOX.exec(rest);
    if (!box) continue;
    let name = rawName;
    try {
      name = JSON.parse(`"${rawName}"`) as string;
    } catch {
      // keep the raw text
    }
    targets.push({
      role,
      name,
      ref,
      box: { x: Number(box[1]), y: Number(box[2]), w: Number(box[3]), h: Number(box[4]) },
    });
  }
  return targets;
}

export const inViewport = (box: Box, width: number, height: number): boolean =>
  box.w > 0 &&
  box.h > 0 &&
  box.x < width &&
  box.y < height &&
  box.x + box.w > 0 &&
  box.y + box.h > 0;

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

function sameName(ours: string | undefined, theirs: string): boolean {
  if (ours === undefined) return theirs.trim() === '';
  const a = normalize(ours);
  const b = normalize(theirs);
  if (a === b) return true;
  // Our names are capped with an ellipsis.
  return a.endsWith('…') && b.startsWith(a.slice(0, -1).trimEnd());
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.w * a.h, b.w * b.h);
}

export function isExposed(target: AriaTarget, tree: V3Like[]): boolean {
  const codes = ROLE_CODES[target.role] ?? [];
  for (const node of tree) {
    if (codes.includes(node.r) && sameName(node.n, target.name)) return true;
    if (node.box) {
      const [x, y, w, h] = node.box;
      if (overlap(target.box, { x, y, w, h }) >= 0.6) return true;
    }
  }
  return false;
}
