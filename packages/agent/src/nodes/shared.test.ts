import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { PageState } from '../page/page-state';
import type { InteractStateType, PreviousAction } from '../state';
import { appendPrevious, renderHistory, validateAction } from './shared';

const entry = (stepIndex: number): PreviousAction => ({
  stepIndex,
  action: `click("${stepIndex}")`,
  thought: '',
  success: true,
  reason: null,
});

describe('rolling summarization', () => {
  it('keeps the last 10 actions raw and folds older ones into one summary line', () => {
    let state = { previousActions: [], previousActionsSummary: '' } as unknown as InteractStateType;
    for (let i = 0; i < 13; i++)
      state = { ...state, ...appendPrevious(state, entry(i)) } as InteractStateType;
    expect(state.previousActions.map((p) => p.stepIndex)).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(state.previousActionsSummary).toBe('3 earlier steps completed.');
    expect(renderHistory(state).split('\n')).toHaveLength(11);
  });
});

describe('validateAction', () => {
  const tree: SemanticNodeV3[] = [
    { i: '1', r: 'btn', n: 'Save' },
    { i: '2', r: 'btn', n: 'Delete', occ: true },
    { i: '3', r: 'btn', n: 'Archive', s: 'disabled' },
  ];
  const page = { tree } as PageState;
  it('accepts grammar actions on ids of the current tree only', () => {
    expect(validateAction("click('1')", page)).toMatchObject({
      ok: true,
      actionString: 'click("1")',
    });
    expect(validateAction('click("9")', page)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not on the current page/),
    });
    expect(validateAction('click("2")', page)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/covered/),
    });
    expect(validateAction('click("3")', page)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/disabled/),
    });
    expect(validateAction('rm -rf /', page).ok).toBe(false);
    expect(validateAction('navigate("javascript:alert(1)")', page).ok).toBe(false);
  });
});
