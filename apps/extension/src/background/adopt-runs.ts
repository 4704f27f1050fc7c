// A run waiting on the user survives a browser restart. Chrome gives tabs new
// ids when it starts again, so a run kept as run_<old id> would wait for a tab that no longer
// exists. When the page it waits on is open again, in a tab with no run of its own, the run
// moves there (with its task), and its popup and side panel show the card again.
import { RunState, runKey, taskKey, type RunStatus } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';

/** Statuses that wait for the user, and may wait across a restart. */
const WAITING: readonly RunStatus[] = ['needs_approval', 'needs_input'];

export interface OpenTab {
  id: number;
  url: string;
}

/** The URL a waiting run was paused on, when it says. */
const pausedOn = (run: RunState, task: unknown): string | undefined =>
  run.approval?.url ??
  (task && typeof task === 'object' && 'url' in task && typeof task.url === 'string'
    ? task.url
    : undefined);

/** Which waiting runs of closed tabs move to which open tab: [from, to] tab ids. */
export function adoptions(
  all: Record<string, unknown>,
  tabs: readonly OpenTab[],
): [from: number, to: number][] {
  const open = new Set(tabs.map((t) => t.id));
  const taken = new Set(
    Object.keys(all)
      .filter((k) => k.startsWith('run_'))
      .map((k) => Number(k.slice(4))),
  );
  const moves: [number, number][] = [];
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith('run_')) continue;
    const run = RunState.safeParse(value);
    if (!run.success || open.has(run.data.tabId) || !WAITING.includes(run.data.status)) continue;
    const url = pausedOn(run.data, all[taskKey(run.data.tabId)]);
    const tab = url ? tabs.find((t) => t.url === url && !taken.has(t.id)) : undefined;
    if (!tab) continue;
    taken.add(tab.id);
    moves.push([run.data.tabId, tab.id]);
  }
  return moves;
}

/** Moves each adopted run (and its task) to its new tab. */
export async function adoptRuns(storage: KeyValueStore, tabs: readonly OpenTab[]): Promise<number> {
  const all = await storage.get(null);
  const moves = adoptions(all, tabs);
  for (const [from, to] of moves) {
    const run = RunState.parse(all[runKey(from)]);
    const task = all[taskKey(from)];
    await storage.set({
      [runKey(to)]: { ...run, tabId: to },
      ...(task ? { [taskKey(to)]: task } : {}),
    });
    await storage.remove([runKey(from), taskKey(from)]);
  }
  return moves.length;
}
