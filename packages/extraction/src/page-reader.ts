// The DOM work of an extraction, behind a port: parsing the page's HTML (jsdom), scoping it by
// the CSS selector, rendering its Markdown, replaying a learned strategy and learning one. It is
// CPU- and memory-heavy work on untrusted input, so the server runs it in its worker pool
// (@tandem/parse-pool, which calls these same functions there); `inlinePageReader` does it on
// the calling thread, for tests and benches. Each call parses the page once: a read either
// replays (and needs no Markdown) or renders, and learning, after the model answered, parses
// again rather than holding a DOM across a model call.
import { ownData } from '@tandem/contracts';
import { parseContent } from './content';
import type { JsonObject } from './json';
import { applyRecipe, learnRecipe, spotCheckWithEvidence, type ReplayRecipe } from './replay';
import { checkOutputSchema } from './schema';

export interface PageReadRequest {
  /** Whose page it is: the server's pool shares its threads fairly between tenants. */
  tenantId?: string;
  html: string;
  /** Applied to the HTML here (POST /api/extract); null: the page as given. */
  cssSelector: string | null;
  url: string | null;
  /** A learned strategy to try before the model: its data is the answer when it fits. */
  replay: { recipe: ReplayRecipe; schema: JsonObject } | null;
  /**
   * Render the Markdown even when the replay fits: this replay is cross-checked by the model on
   * a slice of it. Otherwise a replayed page is never rendered.
   */
  render?: boolean;
}

export interface PageRead {
  /** The content the model reads; null when the replay fitted and no model is needed. */
  markdown: string | null;
  sourceChars: number;
  warnings: string[];
  /** The replayed data, valid against the schema and spot-checked; null when none fitted. */
  replayed: { data: unknown; warnings: string[]; evidence: string[] } | null;
  /** Why the strategy's selectors did not fit this page; null when none was tried or it fitted. */
  replayProblem: string | null;
}

export interface PageLearnRequest {
  tenantId?: string;
  html: string;
  cssSelector: string | null;
  url: string | null;
  /** What the model extracted from this page, valid against `schema`. */
  data: unknown;
  schema: JsonObject;
}

export type PageLearned = { recipe: ReplayRecipe } | { recipe: null; reason: string };

export interface PageReader {
  read(request: PageReadRequest): Promise<PageRead>;
  learn(request: PageLearnRequest): Promise<PageLearned>;
}

/** Replays the recipe on the parsed page: its data when valid and spot-checked, else why not. */
function tryReplay(
  root: Element,
  replay: NonNullable<PageReadRequest['replay']>,
): { replayed: PageRead['replayed']; problem: string | null } {
  const checked = checkOutputSchema(replay.schema);
  if (!checked.ok) return { replayed: null, problem: checked.warning };
  const applied = applyRecipe(root, replay.recipe);
  const valid = checked.schema.zod.safeParse(ownData(applied.data));
  if (!valid.success) {
    const issue = valid.error.issues[0]?.message ?? 'invalid';
    return { replayed: null, problem: `its data does not match the schema (${issue})` };
  }
  const spot = spotCheckWithEvidence(root, replay.recipe, valid.data);
  if (spot.problem !== null) return { replayed: null, problem: spot.problem };
  return {
    replayed: { data: valid.data, warnings: applied.warnings, evidence: spot.evidence },
    problem: null,
  };
}

/** The page read on the calling thread. */
export function readPage(request: PageReadRequest): PageRead {
  const content = parseContent(request);
  try {
    const replay =
      request.replay && content.root
        ? tryReplay(content.root, request.replay)
        : { replayed: null, problem: null };
    return {
      // A replayed page is never rendered: that is most of what replay saves.
      markdown: replay.replayed && !request.render ? null : content.markdown,
      sourceChars: content.sourceChars,
      warnings: content.warnings,
      replayed: replay.replayed,
      replayProblem: replay.problem,
    };
  } finally {
    content.release();
  }
}

/** Replay selectors learned from the model's data on the page, on the calling thread. */
export function learnPage(request: PageLearnRequest): PageLearned {
  const content = parseContent(request);
  try {
    if (!content.root) return { recipe: null, reason: 'the content has no HTML to learn from' };
    return learnRecipe(content.root, request.data, request.schema);
  } finally {
    content.release();
  }
}

/** Reads pages on the calling thread: for tests and benches (the server uses its pool). */
export const inlinePageReader: PageReader = {
  read: async (request) => readPage(request),
  learn: async (request) => learnPage(request),
};
