import type { ViewportContent } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '@tandem/llm/testing';
import { routeAfterActionGeneration, routeAfterComplexity } from '../routes';
import { nodeDeps, pageOf, stateWith } from '../testing/state';
import { captureStep, captureToAsk, imagesFor, takesOverSimpleCommand } from './capture';

const canvas: ViewportContent = { canvases: 1, images: 0, textLength: 40 };
const canvasPage = pageOf([], { viewportContent: canvas });
const order = pageOf([{ i: '7', r: 'btn', n: 'Order' }], { viewportContent: canvas });
const shot = { mimeType: 'image/jpeg' as const, data: 'AAAA' };

describe('takesOverSimpleCommand / routeAfterComplexity', () => {
  const simple = (query: string, page = canvasPage) =>
    stateWith({ query, complexity: 'SIMPLE', page });

  it('keeps commands the tree resolves on the zero-token path', () => {
    expect(takesOverSimpleCommand(simple('click Order', order))).toBe(false);
    expect(routeAfterComplexity(simple('click Order', order))).toBe('direct_action');
  });

  it('hands action generation what the tree cannot resolve and the page needs more for', () => {
    expect(routeAfterComplexity(simple('click the red Order button'))).toBe('action_generation');
    // An empty list on a page that shows text: the DOM may have it.
    const text = pageOf([], { viewportContent: { ...canvas, canvases: 0 } });
    expect(routeAfterComplexity(simple('click Cart', text))).toBe('action_generation');
  });

  it('leaves a plain miss on a good tree to direct_action, and COMPLEX goals to planning', () => {
    const good = pageOf([
      { i: '1', r: 'btn', n: 'Save' },
      { i: '2', r: 'btn', n: 'Cancel' },
      { i: '3', r: 'link', n: 'Help' },
    ]);
    expect(routeAfterComplexity(simple('click Publish', good))).toBe('direct_action');
    expect(
      routeAfterComplexity(stateWith({ query: 'x', complexity: 'COMPLEX', page: canvasPage })),
    ).toBe('context_analysis');
  });
});

describe('captureToAsk', () => {
  const hybrid = { mode: 'hybrid' as const, reason: 'visual' };
  const full = { mode: 'full' as const, reason: 'poor' };
  const step = { captureAskedAtStep: null, stepCount: 3 };

  it('asks for what the page lacks', () => {
    expect(captureToAsk(step, canvasPage, hybrid)).toBe('hybrid');
    expect(captureToAsk(step, canvasPage, full)).toBe('full');
    expect(captureToAsk(step, canvasPage, { mode: 'tree', reason: 'fine' })).toBeNull();
  });

  it('never asks twice in one step, nor for what came already', () => {
    expect(captureToAsk({ captureAskedAtStep: 3, stepCount: 3 }, canvasPage, hybrid)).toBeNull();
    expect(captureToAsk({ captureAskedAtStep: 2, stepCount: 3 }, canvasPage, hybrid)).toBe(
      'hybrid',
    );
    expect(captureToAsk(step, { ...canvasPage, screenshot: shot }, hybrid)).toBeNull();
    expect(captureToAsk(step, { ...canvasPage, html: '<canvas></canvas>' }, full)).toBeNull();
  });
});

describe('captureStep', () => {
  const llm = createScriptedLlm();

  it('asks and routes to dispatch, remembering the step it asked in', () => {
    const state = stateWith({
      query: 'click the red Order button',
      page: canvasPage,
      stepCount: 2,
    });
    const update = captureStep(nodeDeps({ llm }), state, canvasPage);
    expect(update).toMatchObject({
      captureRequest: 'hybrid',
      captureAskedAtStep: 2,
      outcome: { kind: 'read_page' },
    });
    expect(routeAfterActionGeneration({ ...state, ...update } as typeof state)).toBe('dispatch');
  });

  it('lets the model decide once the capture is here', () => {
    const page = { ...canvasPage, screenshot: shot };
    const state = stateWith({ query: 'click the red Order button', page });
    expect(captureStep(nodeDeps({ llm }), state, page)).toBeNull();
    expect(imagesFor(nodeDeps({ llm }), page)).toEqual([shot]);
    const blind = createScriptedLlm([], { acceptsImages: false });
    expect(imagesFor(nodeDeps({ llm: blind }), page)).toBeUndefined();
  });
});
