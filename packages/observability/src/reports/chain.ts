// A chained step is stored as one TaskAction whose `action` is the chain's actions joined by
// "; " (the agent's persist). Splitting must not cut a quoted text that itself contains "; ",
// so a piece only ends where the grammar accepts everything since the last cut.
import { safeParseAction } from '@tandem/contracts';

const SEPARATOR = '; ';

/** The actions of a stored step: one element unless it was a chain. */
export function splitChain(action: string): string[] {
  const parts = action.split(SEPARATOR);
  if (parts.length === 1) return [action];
  const actions: string[] = [];
  let pending: string | null = null;
  for (const part of parts) {
    pending = pending === null ? part : `${pending}${SEPARATOR}${part}`;
    if (safeParseAction(pending).ok) {
      actions.push(pending);
      pending = null;
    }
  }
  // Something the grammar does not know: show it as stored rather than guess a split.
  return pending === null ? actions : [action];
}
