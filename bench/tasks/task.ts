// What a benchmark task is: where it starts, the goal a user types, how success is checked on
// the demo site's real state, and the script the scripted model follows when no real model is
// configured. The script names elements by their visible label; the scripted model finds
// their ids in each prompt's element list, as a model would.
import type { Page } from 'playwright-core';

/** A field of a form fill: its label, the value, and the role when a label is ambiguous. */
export interface FieldValue {
  label: string;
  /** Text for inputs, an option's text for selects, true/false for checkboxes and radios. */
  value: string | boolean;
  /** Role code of the element in the tree (`inp`, `sel`, `radio`, `chk`, `txt`…). */
  role?: string;
}

/** One thing the scripted model does, in order. Every intent is one action on the page. */
export type Intent =
  | { kind: 'click'; target: string; role?: string }
  | { kind: 'type'; target: string; text: string; role?: string }
  /** Several fields of one form in one chain (one round trip); `what` names the form. */
  | { kind: 'fill'; what: string; fields: FieldValue[] };

export type Script =
  /** Intents in order, then finish(). `done`: the text the page shows once the goal is met. */
  | { kind: 'steps'; intents: Intent[]; done?: RegExp }
  /**
   * Structured extraction (docs/specs.md, "extraction overhaul"): extract the page with a schema;
   * with `allPages`, follow "Next page" and reuse the extraction_id there (the server replays the
   * learned selectors).
   */
  | { kind: 'extract'; query: string; schema: Record<string, unknown>; allPages: boolean }
  /**
   * Streaming extraction (docs/specs.md, "streaming extraction"): read the list with a content
   * snapshot, collect every card, page on.
   */
  | { kind: 'collect'; selector: string; type: string };

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

export interface BenchTask {
  /** Short kebab-case id, unique; the table's first column. */
  id: string;
  category: Category;
  /** Demo-site path the tab opens (DEMO_PAGES). */
  start: string;
  /** What the user types into the popup. Unique across the catalogue: the model keys on it. */
  goal: string;
  script: Script;
  /** Reads the demo site's state (DOM of the tab, demo API, or the server's stored output). */
  check(ctx: CheckContext): Promise<CheckResult>;
}
