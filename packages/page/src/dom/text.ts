// Text helpers shared by names, values and events. Pure string functions, unit-tested in Node.

const WHITESPACE_RUN = /\s+/g;

/** Collapses whitespace runs to one space and trims, like what a reader sees. */
export function collapse(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim();
}

/** Collapses, then caps at `max` characters with an ellipsis so the cap is visible to the model. */
export function cap(text: string, max: number): string {
  const collapsed = collapse(text);
  if (collapsed.length <= max) return collapsed;
  return `${collapsed.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** "37%": how far a scrollable box is scrolled; 0% when it cannot scroll at all. */
export function scrollDepth(scrollTop: number, scrollHeight: number, clientHeight: number): string {
  const range = scrollHeight - clientHeight;
  if (range <= 1) return '0%';
  const ratio = Math.min(1, Math.max(0, scrollTop / range));
  return `${Math.round(ratio * 100)}%`;
}

/** Case- and whitespace-insensitive form used to compare option texts and names. */
export function normalizeForMatch(text: string): string {
  return collapse(text).toLowerCase();
}
