import type { SemanticNodeV3, ViewportContent } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { routeMode, visualPhrase } from './mode-router';
import { MIN_USEFUL_ELEMENTS, treeCoverage } from './tree-coverage';

const buttons = (n: number): SemanticNodeV3[] =>
  Array.from({ length: n }, (_, i) => ({ i: String(i + 1), r: 'btn', n: `Button ${i + 1}` }));
const content = (c: Partial<ViewportContent> = {}): ViewportContent => ({
  canvases: 0,
  images: 0,
  textLength: 200,
  ...c,
});

describe('treeCoverage', () => {
  it('is poor when no element is listed although the page shows something', () => {
    expect(treeCoverage({ tree: [], viewportContent: content() })).toEqual({
      poor: true,
      reason: 'the element list is empty although the page shows content',
    });
    // A client that does not say what the page shows: assume it shows something.
    expect(treeCoverage({ tree: [] }).poor).toBe(true);
    // Elements behind a modal cannot be acted on.
    expect(treeCoverage({ tree: [{ i: '1', r: 'btn', occ: true }] }).poor).toBe(true);
  });

  it('is not poor on a blank page: nothing richer would come back', () => {
    expect(treeCoverage({ tree: [], viewportContent: content({ textLength: 0 }) })).toEqual({
      poor: false,
    });
  });

  it(`is poor with fewer than ${MIN_USEFUL_ELEMENTS} elements beside a canvas only`, () => {
    expect(treeCoverage({ tree: buttons(1), viewportContent: content({ canvases: 1 }) })).toEqual({
      poor: true,
      reason: 'the element list has only 1 element beside a canvas',
    });
    expect(treeCoverage({ tree: buttons(2), viewportContent: content({ canvases: 2 }) }).poor).toBe(
      true,
    );
    expect(treeCoverage({ tree: buttons(3), viewportContent: content({ canvases: 1 }) }).poor).toBe(
      false,
    );
    // Text with a couple of links is read with readPage, not the DOM.
    expect(
      treeCoverage({ tree: buttons(1), viewportContent: content({ textLength: 50_000 }) }).poor,
    ).toBe(false);
  });
});

describe('visualPhrase', () => {
  it.each([
    ['click the red Order button', 'red Order button'],
    ['Click the green one', 'green one'],
    ['press the gear icon', 'icon'],
    ['open the menu in the top-right corner', 'top-right'],
    ['click the link at the bottom of the page', 'at the bottom'],
    ['click the star next to the title', 'next to'],
    ['what does the chart show for March?', 'chart'],
    ['click the logo', 'logo'],
    ['select the blue-green tile', 'blue-green tile'],
    ['what colour is the Save button?', 'what colour'],
  ])('%s → %s', (goal, phrase) => {
    expect(visualPhrase(goal)).toBe(phrase);
  });

  it.each([
    'Add a new patient named Jas Patel',
    'scroll to the top',
    'Extract the top 5 jobs',
    'Fill in the form below and submit',
    'click Save',
    'type Red into Favourite colour field',
    'click the right answer',
    'order a white t-shirt in size M',
  ])('%s → none', (goal) => {
    expect(visualPhrase(goal)).toBeNull();
  });
});

describe('routeMode', () => {
  const good = { tree: buttons(5), viewportContent: content() };
  const canvasPage = { tree: [], viewportContent: content({ canvases: 1 }) };

  it('stays on the tree when it covers the page and the goal needs no eyes', () => {
    expect(routeMode({ goal: 'click Save', page: good, readsImages: true })).toEqual({
      mode: 'tree',
      reason: 'the element list covers the page',
    });
  });

  it('takes a screenshot for visual goals and canvas pages when the model reads images', () => {
    expect(routeMode({ goal: 'click the red button', page: good, readsImages: true })).toEqual({
      mode: 'hybrid',
      reason: 'the goal is visual (“red button”)',
    });
    expect(routeMode({ goal: 'place the order', page: canvasPage, readsImages: true })).toEqual({
      mode: 'hybrid',
      reason:
        'the element list is empty although the page shows content and the page draws on a canvas',
    });
  });

  it('asks for the DOM when the tree is poor and no screenshot helps or can be read', () => {
    const empty = { tree: [], viewportContent: content() };
    expect(routeMode({ goal: 'open the cart', page: empty, readsImages: true })).toEqual({
      mode: 'full',
      reason: 'the element list is empty although the page shows content',
    });
    expect(routeMode({ goal: 'place the order', page: canvasPage, readsImages: false })).toEqual({
      mode: 'full',
      reason:
        'the element list is empty although the page shows content; the model reads no images',
    });
  });

  it('keeps a good tree for a visual goal when the model reads no images', () => {
    expect(routeMode({ goal: 'click the red button', page: good, readsImages: false })).toEqual({
      mode: 'tree',
      reason: 'the element list is used; the model reads no images',
    });
  });
});
