// The recipes of one strategy (docs/specs.md, "the strategy cache"): a site with two layouts
// under one URL pattern keeps a recipe per layout instead of flipping between them at every
// relearn. They live in the strategy's replay JSON, opaque to the store but for each entry's
// id, replay count and last use, which the store changes atomically (count, add, retire):
//
//   { recipes: [{ id: "<recipeHash>", replays: 3, used: "<ISO>", recipe: { version: 1, … } }] }
//
// A replay stored before this was the recipe itself (with a `replays` count beside it); it is
// still read, as a list of that one recipe, and rewritten as a list before the first change.
import type { ExtractionRecipeEntry } from '@tandem/store';
import { isJsonObject } from './json';
import { ReplayRecipeSchema, type ReplayRecipe } from './replay';
import { recipeHash } from './replay-check';

/**
 * Recipes kept per strategy: one per layout a site really has (list, grid, a sale page…), few
 * enough that trying them all on a page costs little. The least recently used goes first.
 */
export const MAX_RECIPES = 4;

export interface StoredRecipe {
  /** The recipe's hash: results name it `${strategyId}:${id}`. */
  id: string;
  /** Replays so far, for the sampled cross-check (the first, then every Nth, is checked). */
  replays: number;
  /** When it was learned or last replayed (ISO); '' for a recipe stored before lists. */
  used: string;
  recipe: ReplayRecipe;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** Whether the replay JSON is a recipe list (else null or the older single recipe). */
export const isRecipeList = (replay: Record<string, unknown> | null | undefined): boolean =>
  Array.isArray(replay?.['recipes']);

/**
 * The strategy's recipes, most recently used first. Entries that do not parse (from an older
 * build, hand-edited) are left out rather than replayed half-understood.
 */
export function storedRecipes(replay: Record<string, unknown> | null | undefined): StoredRecipe[] {
  if (!replay) return [];
  if (!isRecipeList(replay)) {
    const single = ReplayRecipeSchema.safeParse(replay);
    if (!single.success) return [];
    return [
      {
        id: recipeHash(single.data),
        replays: count(replay['replays']),
        used: '',
        recipe: single.data,
      },
    ];
  }
  const list: StoredRecipe[] = [];
  for (const entry of replay['recipes'] as unknown[]) {
    if (!isJsonObject(entry) || typeof entry['id'] !== 'string') continue;
    const recipe = ReplayRecipeSchema.safeParse(entry['recipe']);
    if (!recipe.success) continue;
    list.push({
      id: entry['id'],
      replays: count(entry['replays']),
      used: typeof entry['used'] === 'string' ? entry['used'] : '',
      recipe: recipe.data,
    });
  }
  // Stable: equal times keep the stored order (the store puts the newest first).
  return list.sort((a, b) => b.used.localeCompare(a.used));
}

/** A recipe as the store adds it (its count and time are the store's to set). */
export const recipeEntry = (recipe: ReplayRecipe): ExtractionRecipeEntry => ({
  id: recipeHash(recipe),
  recipe: { ...recipe },
});

/** The list form of an older single-recipe replay, its count kept; null when it is none. */
export function upgradedReplay(
  replay: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!replay || isRecipeList(replay)) return null;
  const [only] = storedRecipes(replay);
  return {
    recipes: only ? [{ ...recipeEntry(only.recipe), replays: only.replays, used: '' }] : [],
  };
}
