import { describe, expect, it } from 'vitest';
import { isRecipeList, recipeEntry, storedRecipes, upgradedReplay } from './recipe-list';
import type { ReplayRecipe } from './replay';
import { recipeHash } from './replay-check';

const recipe = (container: string): ReplayRecipe => ({
  version: 1,
  kind: 'list',
  container,
  fields: { name: { selector: 'h3', source: 'text', type: 'string', required: true } },
  itemsSeen: 4,
});

describe('the recipes of a strategy', () => {
  it('reads an older single-recipe replay as a list of it, its count and recipeId kept', () => {
    const legacy = { ...recipe('article.card'), replays: 7 };
    expect(isRecipeList(legacy)).toBe(false);
    const [only, ...none] = storedRecipes(legacy);
    expect(none).toEqual([]);
    expect(only).toEqual({
      // The id a result named before lists: the hash of the parsed recipe.
      id: recipeHash(recipe('article.card')),
      replays: 7,
      used: '',
      recipe: recipe('article.card'),
    });
    expect(upgradedReplay(legacy)).toEqual({
      recipes: [{ id: only?.id, recipe: recipe('article.card'), replays: 7, used: '' }],
    });
    expect(upgradedReplay({ recipes: [] })).toBeNull();
    expect(upgradedReplay(null)).toBeNull();
    expect(storedRecipes({ version: 9 })).toEqual([]);
    expect(storedRecipes(null)).toEqual([]);
  });

  it('lists the recipes most recently used first, leaving out entries that do not parse', () => {
    const a = { ...recipeEntry(recipe('.a')), replays: 2, used: '2026-01-01T00:00:01.000Z' };
    const b = { ...recipeEntry(recipe('.b')), replays: 0, used: '2026-01-01T00:00:03.000Z' };
    const replay = {
      recipes: [a, { id: 'broken', recipe: { version: 2 } }, 'junk', b, { recipe: recipe('.c') }],
    };
    expect(isRecipeList(replay)).toBe(true);
    expect(storedRecipes(replay).map((r) => [r.recipe.container, r.replays])).toEqual([
      ['.b', 0],
      ['.a', 2],
    ]);
    expect(recipeEntry(recipe('.a')).id).toBe(recipeHash(recipe('.a')));
    expect(recipeEntry(recipe('.a')).id).not.toBe(recipeEntry(recipe('.b')).id);
  });
});
