// What the prompt learns about collection: counts only. The point of streaming extraction
// (docs/specs.md, "O(1) context") is that the items live in the store, so the context stays O(1)
// however many are collected.
import type { CollectedCounts } from '@tandem/contracts';

export function collectedTotal(counts: CollectedCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/**
 * The collect target (docs/specs.md, "Collection Limits"): the task stops once this many items are
 * stored.
 */
export function limitReached(counts: CollectedCounts, collectLimit: number | null): boolean {
  return collectLimit !== null && collectLimit > 0 && collectedTotal(counts) >= collectLimit;
}

/**
 * One line for the prompt, e.g. "Collected so far (stored, not shown): 15/25 items (company 3,
 * job 12)." Empty when nothing was collected and no target was set, so prompts of tasks
 * that never collect do not change.
 */
export function collectedSummaryLine(counts: CollectedCounts, collectLimit: number | null): string {
  const types = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const total = collectedTotal(counts);
  const target = collectLimit !== null && collectLimit > 0 ? `/${collectLimit}` : '';
  if (types.length === 0 && !target) return '';
  // One type (the usual extraction) needs no breakdown: "12/25 job items".
  const what =
    types.length === 0
      ? 'items'
      : types.length === 1
        ? `${types[0]?.[0]} items`
        : `items (${types.map(([type, n]) => `${type} ${n}`).join(', ')})`;
  const done = limitReached(counts, collectLimit) ? ' Target reached: finish the task.' : '';
  return `Collected so far (stored, not shown): ${total}${target} ${what}.${done}`;
}
