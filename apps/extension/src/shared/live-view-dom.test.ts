// @vitest-environment jsdom
// The live view's DOM in jsdom (a real DOM, no browser): what the extractions section shows,
// which buttons it offers and what a click asks for.
import type { ExtractionProgress } from '@tandem/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExtractionFormat } from './api-client';
import { createLiveView, type LiveView, type LiveViewInput } from './live-view-dom';
import type { RunState } from './run-state';

const TASK = '11111111-1111-4111-8111-111111111111';
const products: ExtractionProgress = {
  extractionId: 'products',
  items: 119,
  pages: 3,
  isPartial: false,
  summary: '119 unique products from 3 pages, extraction_id=products',
};
const shop: ExtractionProgress = {
  extractionId: 'shop-info',
  items: null,
  pages: 1,
  isPartial: false,
  summary: 'shop details from 1 page, extraction_id=shop-info',
};

const run = (patch: Partial<RunState> = {}): RunState => ({
  tabId: 1,
  goal: 'List every product',
  status: 'running',
  taskId: TASK,
  steps: [],
  updatedAt: 1,
  ...patch,
});

const input = (r: RunState | null): LiveViewInput => ({
  run: r,
  now: 2,
  stopping: false,
  sending: false,
  liveCounts: {},
  empty: 'No task yet.',
  showGoal: false,
});

describe('the extractions section', () => {
  let root: HTMLElement;
  let view: LiveView;
  let asked: [string, ExtractionFormat][];

  beforeEach(() => {
    document.body.replaceChildren();
    root = document.body.appendChild(document.createElement('main'));
    asked = [];
    view = createLiveView(root, {
      stop: () => undefined,
      answer: () => undefined,
      approve: () => undefined,
      reject: () => undefined,
      download: () => undefined,
      downloadExtraction: (id, format) => asked.push([id, format]),
    });
  });

  const section = () => root.querySelector<HTMLElement>('#extractions');
  const rows = () => Array.from(root.querySelectorAll<HTMLLIElement>('#extractions li'));
  const buttons = (row: Element | undefined) =>
    Array.from(row?.querySelectorAll('button') ?? []).map((b) => ({
      type: b.getAttribute('type'),
      text: b.textContent,
      label: b.getAttribute('aria-label'),
    }));

  it('is hidden without a run, and without extractions', () => {
    view.render(input(null));
    expect(section()?.hidden).toBe(true);
    view.render(input(run()));
    expect(section()?.hidden).toBe(true);
    view.render(input(run({ extractions: [] })));
    expect(section()?.hidden).toBe(true);
    expect(rows()).toHaveLength(0);
  });

  it('shows each extraction in words with its download buttons; no CSV of data that is not a list', () => {
    view.render(input(run({ extractions: [products, shop] })));
    expect(section()?.hidden).toBe(false);
    expect(rows().map((r) => r.querySelector('.lv-extraction-text')?.textContent)).toEqual([
      'Extracted 119 items from 3 pages',
      'Extracted data from 1 page',
    ]);
    expect(buttons(rows()[0])).toEqual([
      { type: 'button', text: 'Download JSON', label: 'Download JSON of extraction 1' },
      { type: 'button', text: 'Download CSV', label: 'Download CSV of extraction 1' },
    ]);
    expect(buttons(rows()[1])).toEqual([
      { type: 'button', text: 'Download JSON', label: 'Download JSON of extraction 2' },
    ]);
  });

  it('asks for the extraction and the format of the button clicked', () => {
    view.render(input(run({ extractions: [products, shop] })));
    rows()[0]?.querySelector<HTMLButtonElement>('button[data-format="csv"]')?.click();
    rows()[1]?.querySelector<HTMLButtonElement>('button[data-format="json"]')?.click();
    expect(asked).toEqual([
      ['products', 'csv'],
      ['shop-info', 'json'],
    ]);
  });

  it('keeps an unchanged row (and the focus on its button) across renders, and follows changes', () => {
    view.render(input(run({ extractions: [products] })));
    const button = rows()[0]?.querySelector('button');
    button?.focus();
    view.render(input(run({ extractions: [products] })));
    expect(document.activeElement).toBe(button);
    view.render(input(run({ extractions: [{ ...products, items: 120, isPartial: true }] })));
    expect(rows()[0]?.textContent).toContain(
      'Extracted 120 items from 3 pages (partial: part of a page failed)',
    );
    view.render(input(run({ extractions: [] })));
    expect(rows()).toHaveLength(0);
    expect(section()?.hidden).toBe(true);
  });

  it('offers no download for a run without its task', () => {
    view.render(input(run({ taskId: undefined, extractions: [products] })));
    expect(section()?.hidden).toBe(false);
    expect(buttons(rows()[0])).toEqual([]);
  });
});

describe('the plan section', () => {
  it('heads the sub-tasks of a hierarchical plan between its steps, outside the step count', () => {
    document.body.replaceChildren();
    const root = document.body.appendChild(document.createElement('main'));
    const view = createLiveView(root, {
      stop: () => undefined,
      answer: () => undefined,
      approve: () => undefined,
      reject: () => undefined,
      download: () => undefined,
      downloadExtraction: () => undefined,
    });
    const step = (index: number, part: number, name: string) => ({
      index,
      description: `Step ${index + 1}`,
      status: index === 0 ? ('completed' as const) : ('pending' as const),
      subTask: { index: part, name },
    });
    view.render(
      input(
        run({
          plan: {
            goal: 'g',
            currentStepIndex: 1,
            steps: [
              step(0, 0, 'Add the patient'),
              step(1, 0, 'Add the patient'),
              step(2, 1, 'Book'),
            ],
          },
          currentStep: 1,
        }),
      ),
    );
    const list = root.querySelector('#plan');
    expect([...(list?.children ?? [])].map((li) => li.textContent)).toEqual([
      'Part 1 of 2 · Add the patient',
      '✓Step 1 (done)',
      '▶Step 2 (current step)',
      'Part 2 of 2 · Book',
      '3Step 3 (to do)',
    ]);
    expect(list?.querySelectorAll('.lv-plan-part[role="presentation"]')).toHaveLength(2);
  });
});

describe('the routine banner', () => {
  const routine = {
    routineId: 'r-1',
    name: 'Add patient',
    version: 1,
    savedAt: '2026-11-12T12:00:00.000Z',
    done: 1,
    steps: 3,
    modelCalls: 0,
    healed: [] as number[],
    fellBack: null as string | null,
  };
  let root: HTMLElement;
  let view: LiveView;

  beforeEach(() => {
    document.body.replaceChildren();
    root = document.body.appendChild(document.createElement('main'));
    view = createLiveView(root, {
      stop: () => undefined,
      answer: () => undefined,
      approve: () => undefined,
      reject: () => undefined,
      download: () => undefined,
      downloadExtraction: () => undefined,
    });
  });

  const banner = () => root.querySelector<HTMLElement>('#routine');
  const line = () => root.querySelector('#routine-line')?.textContent;
  const fallback = () => root.querySelector<HTMLElement>('#routine-fallback');

  it('is hidden for a run that runs no routine', () => {
    view.render(input(run()));
    expect(banner()?.hidden).toBe(true);
    expect(banner()?.getAttribute('aria-label')).toBe('Routine');
  });

  it('shows the routine and its progress, then why it stopped', () => {
    view.render(input(run({ routine })));
    expect(banner()?.hidden).toBe(false);
    expect(line()).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 0 model calls · step 2 of 3',
    );
    expect(fallback()?.hidden).toBe(true);

    view.render(input(run({ routine: { ...routine, done: 2, modelCalls: 1, healed: [1] } })));
    expect(line()).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 1 model call · step 3 of 3 · healed step 2',
    );

    view.render(input(run({ routine: { ...routine, done: 2, fellBack: 'the form changed' } })));
    expect(fallback()?.hidden).toBe(false);
    expect(fallback()?.textContent).toBe('Routine stopped: the form changed; the agent continues.');

    view.render(input(run()));
    expect(banner()?.hidden).toBe(true);
  });
});
