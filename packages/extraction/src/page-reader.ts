// The DOM work of an extraction, behind a port: parsing the page's HTML (jsdom), scoping it by
// the CSS selector, rendering its Markdown, replaying a learned strategy and learning one. It is
// CPU- and memory-heavy work on untrusted input, so the server runs it in its worker pool
// (@tandem/parse-pool, which calls these same functions there); `inlinePageReader` does it on
// the calling thread, for tests and benches. Each call parses the page once: a read either
// replays (and needs no Markdown) or renders, and learning, after the model answered, parses
// again rather than holding a DOM across a model call.
import { ownData, type PageLink } from '@tandem/contracts';
import { pageLinks } from '@tandem/page/server';
import { parseContent } from './content';
import { leadsOn, type OnwardAsk } from './page-onward';
import type { JsonObject } from './json';
import {
  applyRecipe,
  learnRecipe,
  spotCheckWithEvidence,
  type ReplayRecipe,
  type SpotCheckOptions,
} from './replay';
import { checkOutputSchema, type CheckedSchema } from './schema';

export interface PageReadRequest {
  /** Whose page it is: the server's pool shares its threads fairly between tenants. */
  tenantId?: string;
  html: string;
  /** Applied to the HTML here (POST /api/extract); null: the page as given. */
  cssSelector: string | null;
  url: string | null;
  /**
   * A learned strategy to try before the model: its recipes (one per layout it has seen, most
   * recently used first, or a single one) are each tried, and the data of the one whose evidence
   * holds is the answer. Two that both hold but read different data: none is (readPage).
   * `known`: items the model took as this list's on another visit (SpotCheckOptions).
   */
  replay:
    | (({ recipes: readonly ReplayRecipe[] } | { recipe: ReplayRecipe }) & {
        schema: JsonObject;
        known?: readonly unknown[];
      })
    | null;
  /**
   * Render the Markdown even when the replay fits: this replay is cross-checked by the model on
   * a slice of it. Otherwise a replayed page is never rendered.
   */
  render?: boolean;
  /**
   * Also tell whether the page's links lead on past it (page-onward.ts), from this same parse:
   * a routine's last read asks (agent routines/leads-on.ts). A second parse of a page of up to
   * 2 MB, or the check over its links, on the request's thread is what this pool spares it.
   */
  onward?: OnwardAsk;
}

/** A link of the page as the next-page check reads it (the extension sends them too). */
export type { PageLink };

export interface PageRead {
  /** The content the model reads; null when the replay fitted and no model is needed. */
  markdown: string | null;
  sourceChars: number;
  warnings: string[];
  /**
   * The replayed data, valid against the schema and spot-checked; null when none fitted.
   * `recipe`: which of the request's recipes read it (its index).
   */
  replayed: { data: unknown; warnings: string[]; evidence: string[]; recipe: number } | null;
  /** Why the strategy's selectors did not fit this page; null when none was tried or it fitted. */
  replayProblem: string | null;
  /** When the request asked (`onward`): what of the page leads on past it, or null. */
  onward?: string | null;
}

export interface PageLearnRequest {
  tenantId?: string;
  html: string;
  cssSelector: string | null;
  url: string | null;
  /** What the model extracted from this page, valid against `schema`. */
  data: unknown;
  schema: JsonObject;
  /**
   * Recipes of other strategies (same schema, a URL pattern this page does not match yet) to
   * replay here too: `agreeing` names those whose evidence holds on this page and whose data is
   * exactly `data`, the proof that this page shares their recipe (the URL pattern may widen).
   */
  probes?: readonly { key: string; recipe: ReplayRecipe }[];
  /** `data` was read off this page on an earlier visit, not now (learn.ts, LearnOptions). */
  fromEarlierVisit?: boolean;
  /**
   * Items read off other pages that this page may show again (a board repeating the tail of
   * the page before): learned from too, before `data` (a list), when every text of theirs is in
   * the page's HTML. Searching the HTML (up to 2 MB, for each of them) is the pool's work.
   */
  shownAgain?: readonly Record<string, unknown>[];
  /**
   * Replay the learned recipe on this same parse, as a read would (schema, spot check), and
   * return what it reads: data read some other way is kept only if the selectors read it back
   * (data-strategy.ts), and a second parse of the page in the pool would only repeat this one.
   */
  readBack?: boolean;
  /** Also tell whether the page leads on past it, from this same parse (PageReadRequest). */
  onward?: OnwardAsk;
}

export type PageLearned = ({ recipe: ReplayRecipe } | { recipe: null; reason: string }) & {
  /** The probes' keys whose replay read exactly the model's data on this page. */
  agreeing?: string[];
  /** The learned recipe replayed here, when asked (readBack): its data, or why it did not fit. */
  readBack?: { ok: true; data: unknown; evidence: string[] } | { ok: false; problem: string };
  /** When the request asked (`onward`): what of the page leads on past it, or null. */
  onward?: string | null;
};

export interface PageReader {
  read(request: PageReadRequest): Promise<PageRead>;
  learn(request: PageLearnRequest): Promise<PageLearned>;
}

type Replayed = { data: unknown; warnings: string[]; evidence: string[] };

/** Replays one recipe on the parsed page: its data when valid and spot-checked, else why not. */
function tryRecipe(
  root: Element,
  recipe: ReplayRecipe,
  schema: CheckedSchema,
  options: SpotCheckOptions = {},
): { replayed: Replayed; problem: null } | { replayed: null; problem: string } {
  const applied = applyRecipe(root, recipe);
  const valid = schema.zod.safeParse(ownData(applied.data));
  if (!valid.success) {
    const issue = valid.error.issues[0]?.message ?? 'invalid';
    return { replayed: null, problem: `its data does not match the schema (${issue})` };
  }
  const spot = spotCheckWithEvidence(root, recipe, valid.data, options);
  if (spot.problem !== null) return { replayed: null, problem: spot.problem };
  return {
    replayed: { data: valid.data, warnings: applied.warnings, evidence: spot.evidence },
    problem: null,
  };
}

const recipesOf = (replay: NonNullable<PageReadRequest['replay']>): readonly ReplayRecipe[] =>
  'recipes' in replay ? replay.recipes : [replay.recipe];

/** Same data, whatever the key order of its objects. */
function sameData(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
              .map(([key, v]) => [key, canonical(v)]),
          )
        : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Every recipe of the strategy is tried (a few at most, MAX_RECIPES): the answer is the data of
 * those whose evidence holds, when they agree. Two recipes that both fit but read the page
 * differently have no evidence for either, so neither is taken and the model reads the page.
 */
function tryReplay(
  root: Element,
  replay: NonNullable<PageReadRequest['replay']>,
  url: string | null,
): { replayed: PageRead['replayed']; problem: string | null } {
  const checked = checkOutputSchema(replay.schema);
  if (!checked.ok) return { replayed: null, problem: checked.warning };
  const recipes = recipesOf(replay);
  const problems: string[] = [];
  let found: { replayed: Replayed; recipe: number } | null = null;
  for (const [index, recipe] of recipes.entries()) {
    const tried = tryRecipe(root, recipe, checked.schema, { known: replay.known ?? [], url });
    if (tried.replayed === null) {
      problems.push(recipes.length === 1 ? tried.problem : `recipe ${index + 1}: ${tried.problem}`);
    } else if (found === null) {
      found = { replayed: tried.replayed, recipe: index };
    } else if (!sameData(found.replayed.data, tried.replayed.data)) {
      return {
        replayed: null,
        problem: `recipes ${found.recipe + 1} and ${index + 1} both fit but read the page differently`,
      };
    }
  }
  if (found) return { replayed: { ...found.replayed, recipe: found.recipe }, problem: null };
  return { replayed: null, problem: problems.join('; ') || 'the strategy has no recipe' };
}

/** The probes whose recipe, evidence holding, reads exactly the model's data on this page. */
function agreeingProbes(
  root: Element,
  request: PageLearnRequest,
  data: unknown,
  schema: CheckedSchema,
): string[] {
  if (!request.probes || request.probes.length === 0) return [];
  return request.probes
    .filter(({ recipe }) => {
      const tried = tryRecipe(root, recipe, schema, { url: request.url });
      return tried.replayed !== null && sameData(tried.replayed.data, data);
    })
    .map(({ key }) => key);
}

/** The page read on the calling thread. */
export function readPage(request: PageReadRequest): PageRead {
  const content = parseContent(request);
  try {
    const replay =
      request.replay && content.root
        ? tryReplay(content.root, request.replay, request.url)
        : { replayed: null, problem: null };
    return {
      // A replayed page is never rendered: that is most of what replay saves.
      markdown: replay.replayed && !request.render ? null : content.markdown,
      sourceChars: content.sourceChars,
      warnings: content.warnings,
      replayed: replay.replayed,
      replayProblem: replay.problem,
      ...(request.onward ? { onward: onwardOf(content.root, request.onward) } : {}),
    };
  } finally {
    content.release();
  }
}

/**
 * At most this many links are checked: a 2 MB page of bare anchors holds some 170,000. A pager
 * link past the cap is not seen (those marked rel="next" come first); the routine's end check
 * still finds its pager element by name.
 */
const LINKS_MAX = 20_000;

/**
 * Whether the page leads on past it (page-onward.ts), from the links of the whole document
 * `root` belongs to (the extension's snapshot is already scoped by the strategy's selector, and
 * a selector applied here still leaves the page's pager in view; the same reading as the
 * extension's, @tandem/page pageLinks), then the links the client listed outside its snapshot.
 */
function onwardOf(root: Element | null, ask: OnwardAsk): string | null {
  const own = root ? pageLinks(root.ownerDocument, { max: LINKS_MAX }) : [];
  return leadsOn([...own, ...(ask.outside ?? [])], ask.url, ask.move);
}

/** An item whose every text is in the page (a look-alike elsewhere makes learning fail). */
function shownIn(html: string, item: Record<string, unknown>): boolean {
  const texts = Object.values(item).filter((v): v is string => typeof v === 'string' && v !== '');
  return texts.length > 0 && texts.every((text) => html.includes(text));
}

/** The request's data with the items of other pages this page shows again before it. */
function withShownAgain(request: PageLearnRequest): unknown {
  if (!request.shownAgain || !Array.isArray(request.data)) return request.data;
  return [...request.shownAgain.filter((item) => shownIn(request.html, item)), ...request.data];
}

/** The recipe just learned, replayed on the page it was learned on (PageLearnRequest.readBack). */
function readBackOf(
  root: Element,
  recipe: ReplayRecipe,
  schema: CheckedSchema,
  url: string | null,
): NonNullable<PageLearned['readBack']> {
  const tried = tryRecipe(root, recipe, schema, { url });
  if (!tried.replayed) return { ok: false, problem: tried.problem };
  return { ok: true, data: tried.replayed.data, evidence: tried.replayed.evidence };
}

/** Replay selectors learned from the model's data on the page, on the calling thread. */
export function learnPage(request: PageLearnRequest): PageLearned {
  const content = parseContent(request);
  try {
    if (!content.root) return { recipe: null, reason: 'the content has no HTML to learn from' };
    const data = withShownAgain(request);
    if (request.shownAgain && Array.isArray(data) && data.length === 0)
      return { recipe: null, reason: 'the saved run stored no items from this page' };
    const learned = learnRecipe(content.root, data, request.schema, {
      url: request.url,
      fromEarlierVisit: request.fromEarlierVisit,
    });
    // The schema is checked once for the probes and the read-back.
    const checked = checkOutputSchema(request.schema);
    const agreeing = checked.ok ? agreeingProbes(content.root, request, data, checked.schema) : [];
    let readBack: PageLearned['readBack'] | null = null;
    if (request.readBack && learned.recipe)
      readBack = checked.ok
        ? readBackOf(content.root, learned.recipe, checked.schema, request.url)
        : { ok: false, problem: checked.warning };
    return {
      ...learned,
      ...(agreeing.length > 0 ? { agreeing } : {}),
      ...(readBack ? { readBack } : {}),
      ...(request.onward ? { onward: onwardOf(content.root, request.onward) } : {}),
    };
  } finally {
    content.release();
  }
}

/** Reads pages on the calling thread: for tests and benches (the server uses its pool). */
export const inlinePageReader: PageReader = {
  read: async (request) => readPage(request),
  learn: async (request) => learnPage(request),
};
