// The recipe-list updates of extraction strategies (mongo-queries.ts), evaluated by mingo
// on documents of the stored shape: the count and add pipelines and the $pull that retires
// are the very documents the adapter sends.
import { describe, expect, it } from 'vitest';
import type { ExtractionStrategyDoc } from './mongo-schema';
import {
  strategyAddRecipe,
  strategyCountRecipe,
  strategyRetireRecipe,
  strategyUrlPatternUpdate,
} from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms));

const strategy = (
  id: string,
  replay: unknown,
  urlPattern = 'http://s.test/a*',
): ExtractionStrategyDoc => ({
  id,
  tenantId: 't1',
  domain: 's.test',
  urlPattern,
  cssSelector: null,
  outputSchema: { type: 'array' },
  schemaHash: 'h',
  queryTemplate: 'q',
  replay,
  successCount: 0,
  failureCount: 0,
  lastUsed: at(0),
  createdAt: at(0),
  updatedAt: at(0),
});

type Entry = { id: string; replays: number; used: string; recipe?: unknown };
const recipes = (doc: ExtractionStrategyDoc | null): Entry[] =>
  ((doc?.replay as { recipes?: Entry[] } | null)?.recipes ?? []) as Entry[];

describe('the recipe list of a strategy', () => {
  it('adds newest first, replaces an entry with its id, and keeps the most recently used', () => {
    // An older single recipe is no list: the first add starts one.
    const strategies = new MingoCollection([strategy('s1', { version: 1, replays: 3 })]);
    const add = (id: string, ms: number) =>
      strategies.findOneAndUpdate(
        strategyAddRecipe(
          't1',
          's1',
          { id, recipe: { container: `.${id}`, $odd: '$x' } },
          2,
          at(ms),
        ),
      );
    const first = add('a', 1);
    expect(first?.replay).toEqual({
      recipes: [
        { id: 'a', recipe: { container: '.a', $odd: '$x' }, replays: 0, used: at(1).toISOString() },
      ],
    });
    expect(first?.updatedAt).toEqual(at(1));
    add('b', 2);
    strategies.findOneAndUpdate(strategyCountRecipe('t1', 's1', 'a', at(3)));
    expect(recipes(add('c', 4)).map((r) => [r.id, r.replays])).toEqual([
      ['c', 0],
      ['a', 1],
    ]);
    expect(recipes(add('a', 5)).map((r) => [r.id, r.replays])).toEqual([
      ['a', 0],
      ['c', 0],
    ]);
    expect(
      strategies.findOneAndUpdate(strategyAddRecipe('t1', 'missing', { id: 'a' }, 2, at(6))),
    ).toBeNull();
  });

  it('counts one recipe, retires one with $pull, and matches nothing without it', () => {
    const list = {
      recipes: [
        { id: 'a', replays: 2, used: at(1).toISOString() },
        { id: 'b', replays: 0, used: at(2).toISOString() },
      ],
    };
    const strategies = new MingoCollection([strategy('s1', list)]);
    const counted = strategies.findOneAndUpdate(strategyCountRecipe('t1', 's1', 'a', at(7)));
    expect(recipes(counted)).toEqual([
      { id: 'a', replays: 3, used: at(7).toISOString() },
      { id: 'b', replays: 0, used: at(2).toISOString() },
    ]);
    const retired = strategies.findOneAndUpdate(strategyRetireRecipe('t1', 's1', 'b', at(8)));
    expect(recipes(retired).map((r) => r.id)).toEqual(['a']);
    expect(retired?.updatedAt).toEqual(at(8));
    expect(strategies.findOneAndUpdate(strategyRetireRecipe('t1', 's1', 'b', at(9)))).toBeNull();
    expect(strategies.findOneAndUpdate(strategyCountRecipe('t1', 's1', 'zz', at(9)))).toBeNull();
    expect(strategies.docs[0]?.updatedAt).toEqual(at(8));
  });

  it('moves the URL pattern only from the one the strategy has', () => {
    const strategies = new MingoCollection([strategy('s1', null, 'http://s.test/shoes/list*')]);
    const change = { from: 'http://s.test/shoes/list*', to: 'http://s.test/*/list*' };
    expect(
      strategies.findOneAndUpdate(strategyUrlPatternUpdate('t1', 's1', change, at(1)))?.urlPattern,
    ).toBe('http://s.test/*/list*');
    expect(
      strategies.findOneAndUpdate(strategyUrlPatternUpdate('t1', 's1', change, at(2))),
    ).toBeNull();
  });
});
