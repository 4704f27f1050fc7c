// What a benchmark task is: where it starts, the goal a user types, how success is checked on
// the demo site's real state, and the script the scripted model follows when no real model is
// configured. The script names elements by their visible label; the scripted model finds
// their ids in each prompt's element list, as a model would.
import type { Page } from 'playwright-core';
import type { Script } from '@tandem/agent/testing/model-double';

export interface CheckContext {
  /** The demo sites' origin (no trailing slash). */
  demo: string;
  /** The tab the task ran in, as it is now. */
  page: Page;
  server: { url: string; apiKey: string };
  taskId: string;
  /** The answer the run ended with. */
  result: string;
}

export interface CheckResult {
  ok: boolean;
  /** What was found, for the table's notes and for a failing test's message. */
  detail: string;
}

export type Category =
  'form' | 'navigation' | 'dropdown' | 'modal' | 'tricky-dom' | 'collection' | 'catalogue';

/** One goal on the task's site: what the user types, the scripted model's intents, the check. */
export interface TaskGoal {
  /** What the user types into the popup. Unique across the catalogue: the model keys on it. */
  goal: string;
  /** Intents in order, or an extraction or a collection (@tandem/agent's intent scripts). */
  script: Script;
  /** Reads the demo site's state (DOM of the tab, demo API, or the server's stored output). */
  check(ctx: CheckContext): Promise<CheckResult>;
}

export interface BenchTask extends TaskGoal {
  /** Short kebab-case id, unique; the table's first column. */
  id: string;
  category: Category;
  /** Demo-site path the tab opens (DEMO_PAGES). */
  start: string;
  /**
   * The second run of `--routines`: the same goal with other values (another name, email,
   * title…), so a routine saved by the first run has to take them as parameters. Absent when
   * the goal has no values to change: the second run repeats the goal.
   */
  rerun?: TaskGoal;
}
