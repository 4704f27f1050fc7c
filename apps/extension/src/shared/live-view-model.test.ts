import { describe, expect, it } from 'vitest';
import { extractionRows, planItems, routineBanner, stepModel, stepText } from './live-view-model';
import type { RunState, StepView } from './run-state';

const step = (patch: Partial<StepView> = {}): StepView => ({
  index: 0,
  thought: 'I will open the patients list.',
  status: 'executing',
  at: 1,
  ...patch,
});

const verdict = (success: boolean, reason: string) => ({ success, confidence: 0.9, reason });

describe('stepText', () => {
  it('prefers the loop’s plain-language summary', () => {
    expect(stepText(step({ action: 'click("3")', summary: 'Clicked “Patients”' }))).toEqual({
      text: 'Clicked “Patients”',
      kind: 'action',
    });
  });

  it('describes an action without a summary instead of showing the grammar', () => {
    expect(stepText(step({ action: 'setValue(7, "Jas")' })).text).toBe('Typed “Jas” into field 7');
    expect(stepText(step({ action: 'click("3")' })).text).toBe('Clicked element 3');
  });

  it('describes a chain as one sentence', () => {
    const chain = ['setValue(7, "Jas")', 'setValue(8, "Patel")'];
    expect(stepText(step({ action: chain[0], chain })).text).toBe(
      'Typed “Jas” into field 7, then typed “Patel” into field 8',
    );
  });

  it('shows an action it cannot parse as written rather than hiding it', () => {
    expect(stepText(step({ action: 'teleport(3)' })).text).toBe('teleport(3)');
  });

  it('shows a page read as a read', () => {
    expect(stepText(step({ read: true, summary: 'Read the page outline' }))).toEqual({
      text: 'Read the page outline',
      kind: 'read',
    });
    expect(stepText(step({ read: true }))).toEqual({ text: 'Read the page', kind: 'read' });
  });

  it('falls back to the thought for a step without an action', () => {
    expect(stepText(step())).toEqual({ text: 'I will open the patients list.', kind: 'note' });
  });
});

describe('stepModel', () => {
  it('shows each verdict on the step it judges, and none on a step not judged yet', () => {
    const steps = [
      step({ index: 0, action: 'click("3")', verification: verdict(true, 'The list opened.') }),
      step({ index: 1, action: 'click("9")', verification: verdict(false, 'Nothing changed.') }),
      step({ index: 2, action: 'click("4")' }),
    ];
    const models = steps.map((s) => stepModel(s));
    expect(models.map((m) => m.verdict)).toEqual([
      { ok: true, reason: 'The list opened.' },
      { ok: false, reason: 'Nothing changed.' },
      undefined,
    ]);
  });

  it('keeps the raw action (one line per chain item) and the thought one click away', () => {
    const chain = ['setValue(7, "Jas")', 'press("Enter")'];
    const model = stepModel(step({ action: chain[0], chain, thought: 'Fill and submit.' }));
    expect(model.raw).toBe('setValue(7, "Jas")\npress("Enter")');
    expect(model.thought).toBe('Fill and submit.');
    expect(stepModel(step({ read: true })).raw).toBeUndefined();
  });

  it('does not repeat the final answer in the step list', () => {
    const last = step({
      action: 'finish("Jas Patel was added.")',
      summary: 'Jas Patel was added.',
    });
    expect(stepModel(last, 'Jas Patel was added.').text).toBe('Finished');
    expect(stepModel(last, 'Something else').text).toBe('Jas Patel was added.');
  });

  it('changes its key when anything shown changes, and only then', () => {
    const a = stepModel(step({ action: 'click("3")' }));
    expect(stepModel(step({ action: 'click("3")' })).key).toBe(a.key);
    expect(
      stepModel(step({ action: 'click("3")', verification: verdict(true, 'ok') })).key,
    ).not.toBe(a.key);
  });
});

describe('planItems', () => {
  const plan = (statuses: ('pending' | 'active' | 'completed' | 'failed' | 'skipped')[]) => ({
    goal: 'g',
    currentStepIndex: 0,
    steps: statuses.map((status, index) => ({ index, description: `Step ${index + 1}`, status })),
  });
  const run = (patch: Partial<RunState>): RunState => ({
    tabId: 1,
    goal: 'g',
    status: 'running',
    steps: [],
    updatedAt: 1,
    ...patch,
  });

  it('marks the current step and ticks the completed ones', () => {
    const items = planItems(
      run({ plan: plan(['completed', 'active', 'pending', 'pending']), currentStep: 1 }),
    );
    expect(items.map((i) => i.mark)).toEqual(['done', 'current', 'todo', 'todo']);
    expect(items[1]?.text).toBe('Step 2');
  });

  it('ticks steps the plan moved past even when their status was not updated', () => {
    const items = planItems(
      run({ plan: { ...plan(['pending', 'pending', 'pending']), currentStepIndex: 2 } }),
    );
    expect(items.map((i) => i.mark)).toEqual(['done', 'done', 'current']);
  });

  it('heads each sub-task of a hierarchical plan once, at its first step', () => {
    const p = plan(['completed', 'active', 'pending', 'pending']);
    const names = ['Add the patient', 'Add the patient', 'Book the visit', 'Send the note'];
    const steps = p.steps.map((s, i) => ({
      ...s,
      subTask: { index: [0, 0, 1, 2][i] ?? 0, name: names[i] ?? '' },
    }));
    const items = planItems(run({ plan: { ...p, steps }, currentStep: 1 }));
    expect(items.map((i) => i.part)).toEqual([
      'Part 1 of 3 · Add the patient',
      undefined,
      'Part 2 of 3 · Book the visit',
      'Part 3 of 3 · Send the note',
    ]);
    expect(planItems(run({ plan: p })).some((i) => i.part)).toBe(false);
  });

  it('keeps failed and skipped steps as the server says', () => {
    const items = planItems(run({ plan: plan(['failed', 'skipped', 'active']), currentStep: 2 }));
    expect(items.map((i) => i.mark)).toEqual(['failed', 'skipped', 'current']);
  });

  it('marks no current step once the run cannot act; a completed run ticks its last step', () => {
    const p = plan(['completed', 'active']);
    expect(
      planItems(run({ plan: p, currentStep: 1, status: 'stopped' })).map((i) => i.mark),
    ).toEqual(['done', 'todo']);
    expect(
      planItems(run({ plan: p, currentStep: 1, status: 'completed' })).map((i) => i.mark),
    ).toEqual(['done', 'done']);
  });

  it('is empty without a plan', () => {
    expect(planItems(run({}))).toEqual([]);
  });
});

describe('extractionRows', () => {
  const TASK = '11111111-1111-4111-8111-111111111111';
  const products = {
    extractionId: 'products',
    items: 119,
    pages: 3,
    isPartial: false,
    summary: '119 unique products from 3 pages, extraction_id=products',
  };
  const shop = {
    extractionId: 'shop-info',
    items: null,
    pages: 1,
    isPartial: true,
    summary: 'shop details from 1 page, extraction_id=shop-info',
  };

  it('offers JSON and CSV of a list, named after the data when there is one extraction', () => {
    expect(extractionRows([products], TASK)).toEqual([
      {
        key: expect.any(String),
        extractionId: 'products',
        text: 'Extracted 119 items from 3 pages',
        downloads: [
          { format: 'json', text: 'Download JSON', label: 'Download JSON of the extracted data' },
          { format: 'csv', text: 'Download CSV', label: 'Download CSV of the extracted data' },
        ],
      },
    ]);
  });

  it('numbers the extractions in the names when there are several, and offers no CSV of data that is not a list', () => {
    const rows = extractionRows([products, shop], TASK);
    expect(rows.map((r) => r.text)).toEqual([
      'Extracted 119 items from 3 pages',
      'Extracted data from 1 page (partial: part of a page failed)',
    ]);
    expect(rows.map((r) => r.downloads.map((d) => d.label))).toEqual([
      ['Download JSON of extraction 1', 'Download CSV of extraction 1'],
      ['Download JSON of extraction 2'],
    ]);
  });

  it('changes the key whenever what is shown changes, and only then', () => {
    const [before] = extractionRows([products], TASK);
    expect(extractionRows([products], TASK)[0]?.key).toBe(before?.key);
    expect(extractionRows([{ ...products, items: 120 }], TASK)[0]?.key).not.toBe(before?.key);
    expect(extractionRows([products, shop], TASK)[0]?.key).not.toBe(before?.key);
  });

  it('offers no download without the task, and has no rows without extractions', () => {
    expect(extractionRows([products], undefined)[0]?.downloads).toEqual([]);
    expect(extractionRows([], TASK)).toEqual([]);
  });
});

describe('routineBanner', () => {
  const base: RunState = { tabId: 1, goal: 'Add Ann', status: 'running', steps: [], updatedAt: 1 };
  const routine = {
    routineId: 'r-1',
    name: 'Add patient',
    version: 1,
    savedAt: '2026-11-12T12:00:00.000Z',
    done: 2,
    steps: 4,
    modelCalls: 1,
    healed: [1],
    fellBack: null,
  };

  it('is null for no run and for a run without a routine', () => {
    expect(routineBanner(null)).toBeNull();
    expect(routineBanner(base)).toBeNull();
  });

  it('shows the line while the routine runs, with no fallback', () => {
    const banner = routineBanner({ ...base, routine });
    expect(banner?.line).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 1 model call · step 3 of 4 · healed step 2',
    );
    expect(banner?.fallback).toBeNull();
  });

  it('adds why it stopped once the agent took over, and changes its key', () => {
    const running = routineBanner({ ...base, routine });
    const stopped = routineBanner({
      ...base,
      routine: { ...routine, fellBack: 'no “Save” button on the page' },
    });
    expect(stopped?.fallback).toBe(
      'Routine stopped: no “Save” button on the page; the agent continues.',
    );
    expect(stopped?.key).not.toBe(running?.key);
  });
});
