// Renders the outline model as the spec's text (docs/specs.md, "Mode: outline"): a PAGE/OUTLINE
// header, then one indented line per entry: `ROLE "name" [metadata] xpath`.
import type { LineFilter } from './grep';
import type { Outline, OutlineEntry, OutlineRole } from './outline-model';
import { flattenOutline, LANDMARK_ROLES } from './outline-model';
import { counted } from './words';
import { xpathShape } from './xpath';

export interface PageHeader {
  url: string;
  title: string;
  /** Absent without layout (server side). */
  viewport?: { width: number; height: number };
}

export function pageLine(page: PageHeader): string {
  const parts = [`PAGE: ${page.url}`, page.title];
  if (page.viewport) parts.push(`viewport=${page.viewport.width}x${page.viewport.height}`);
  return parts.join(' | ');
}

export const quote = (text: string): string => JSON.stringify(text);

function metadata(entry: OutlineEntry): string[] {
  const words = counted(entry.words, 'word');
  const links = entry.links > 0 ? [counted(entry.links, 'link')] : [];
  switch (entry.role) {
    case 'HEADING':
      return [];
    case 'PARAGRAPH':
      return [counted(entry.paragraphs ?? 1, 'paragraph'), words];
    case 'LIST':
      return [counted(entry.items ?? 0, 'item'), ...links];
    case 'CODE':
      return [...(entry.lang ? [entry.lang] : []), counted(entry.lines ?? 0, 'line')];
    case 'TABLE':
      return [counted(entry.rows ?? 0, 'row'), counted(entry.columns ?? 0, 'column')];
    case 'FIGURE':
      return entry.images > 0 ? [counted(entry.images, 'image')] : [words];
    case 'BLOCKQUOTE':
      return [words];
    default:
      return [words, ...links];
  }
}

/** An entry's line without indentation; grep and content mode match against it. */
export function entryLine(entry: OutlineEntry, preview = false): string {
  const parts: string[] = [entry.role];
  if (entry.level !== undefined) parts.push(`level=${entry.level}`);
  if (entry.name) parts.push(quote(entry.name));
  const meta = metadata(entry);
  if (meta.length > 0) parts.push(`[${meta.join(', ')}]`);
  if (preview || entry.preview) parts.push('[preview]');
  parts.push(entry.xpath);
  return parts.join(' ');
}

const PLURALS: Partial<Record<OutlineRole, string>> = {
  CODE: 'code blocks',
  BLOCKQUOTE: 'quotes',
  NAVIGATION: 'navigation blocks',
  ASIDE: 'asides',
  SEARCH: 'search regions',
};

/** A run of this many alike siblings is cut to a preview ("+N more"). */
export const COLLAPSE_RUN = 5;
export const PREVIEW_ITEMS = 2;

/**
 * Length of the run of alike siblings (same role, same xpath shape) starting at `start`.
 * `shapes` holds each entry's xpath shape, computed once per list rather than once per start.
 */
function runLength(
  entries: readonly OutlineEntry[],
  shapes: readonly string[],
  start: number,
): number {
  const first = entries[start] as OutlineEntry;
  const shape = shapes[start];
  let end = start + 1;
  while (end < entries.length) {
    const next = entries[end] as OutlineEntry;
    if (next.role !== first.role || shapes[end] !== shape) break;
    end++;
  }
  return end - start;
}

export interface OutlineTextOptions {
  page: PageHeader;
  filter: LineFilter;
  grep?: string;
  maxDepth?: number;
}

export function renderOutline(outline: Outline, options: OutlineTextOptions): string {
  const all = flattenOutline(outline.entries);
  const count = (roles: (role: OutlineRole) => boolean) => all.filter((e) => roles(e.role)).length;
  const stats = [
    `landmarks=${count((r) => LANDMARK_ROLES.has(r))}`,
    `sections=${count((r) => r === 'REGION' || r === 'ARTICLE')}`,
    `headings=${count((r) => r === 'HEADING')}`,
    `words=${outline.words}`,
  ];
  if (options.grep !== undefined) stats.push(`grep=${options.grep}`);
  const lines = [pageLine(options.page), `OUTLINE: ${stats.join(' ')}`, ''];
  // A grep is a search: every entry is a candidate, so nothing is collapsed then.
  const collapse = options.grep === undefined;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;

  const emit = (line: string, depth: number): void => {
    if (options.filter(line)) lines.push(`${'  '.repeat(depth)}${line}`);
  };
  const walk = (entries: readonly OutlineEntry[], depth: number): void => {
    if (depth >= maxDepth) return;
    const shapes = collapse ? entries.map((entry) => xpathShape(entry.xpath)) : [];
    for (let i = 0; i < entries.length;) {
      const run = collapse ? runLength(entries, shapes, i) : 1;
      if (run >= COLLAPSE_RUN) {
        for (let k = i; k < i + PREVIEW_ITEMS; k++) {
          emit(entryLine(entries[k] as OutlineEntry, true), depth);
        }
        const role = (entries[i] as OutlineEntry).role;
        const noun = PLURALS[role] ?? `${role.toLowerCase()}s`;
        emit(`TEXT ${quote(`+${run - PREVIEW_ITEMS} more ${noun}`)}`, depth);
        i += run;
        continue;
      }
      const entry = entries[i] as OutlineEntry;
      emit(entryLine(entry), depth);
      walk(entry.children, depth + 1);
      i++;
    }
  };
  walk(outline.entries, 0);
  return lines.join('\n');
}
