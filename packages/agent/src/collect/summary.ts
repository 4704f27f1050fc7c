// What the prompt learns about collection: counts only. Spec 000's point is that the items
// live in the store, so the context stays O(1) however many are collected.
import type { CollectedCounts } from '@tandem/contracts';

export function collectedTotal(counts: CollectedCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Spec 000 "Collection Limits": the task stops once this many items are stored. */
export function limitReached(counts: CollectedCounts, collectLimit: number | null): boolean {
  return collectLimit !== null && collectLimit > 0 && collectedTotal(counts) >= collectLimit;
}

/**
 * One line for the prompt, e.g. "Collected so far (stored, not shown): job 12, company 3 —
 * 15/25 items." Empty when nothing was collected and no target was set, so prompts of tasks
 * that never collect do not change.
 */
export function collectedSummaryLine(counts: CollectedCounts, collectLimit: number | null): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, n]) => `${type} ${n}`);
  const total = collectedTotal(counts);
  const target = collectLimit !== null && collectLimit > 0 ? `/${collectLimit}` : '';
  if (parts.length === 0) {
    return target ? `Collected so far: 0${target} items.` : '';
  }
  const done = limitReached(counts, collectLimit) ? ' Target reached: finish the task.' : '';
  return `Collected so far (stored, not shown): ${parts.join(', ')} — ${total}${target} items.${done}`;
}
