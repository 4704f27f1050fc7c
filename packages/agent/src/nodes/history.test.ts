import { describe, expect, it } from 'vitest';
import type { InteractStateType, PreviousAction } from '../state';
import { appendPrevious, renderHistory, verificationLine } from './history';

const entry = (stepIndex: number): PreviousAction => ({
  stepIndex,
  action: `click("${stepIndex}")`,
  thought: '',
  success: true,
  reason: null,
});

describe('rolling summarization', () => {
  it('keeps the last 10 actions raw and folds older ones into one summary line', () => {
    let state = { previousActions: [], earlierActionCount: 0 } as unknown as InteractStateType;
    for (let i = 0; i < 13; i++)
      state = { ...state, ...appendPrevious(state, entry(i)) } as InteractStateType;
    expect(state.previousActions.map((p) => p.stepIndex)).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(state.earlierActionCount).toBe(3);
    expect(renderHistory(state).split('\n')[0]).toBe('3 earlier steps completed.');
    expect(renderHistory(state).split('\n')).toHaveLength(11);
  });
});

describe('renderHistory', () => {
  const at = (
    stepIndex: number,
    action: string,
    success: boolean | null = true,
    reason: string | null = 'ok',
  ): PreviousAction => ({ stepIndex, action, thought: '', success, reason });
  const history = (previousActions: PreviousAction[], earlierActionCount = 0) =>
    renderHistory({ previousActions, earlierActionCount });

  it('says so when nothing was done yet', () => {
    expect(history([])).toBe('(no actions yet)');
  });

  it('folds a run of the same verified verb in one step into one line ending with the latest', () => {
    const pages = Array.from({ length: 10 }, (_, k) =>
      at(0, `click("next-${k}")`, true, `page ${k}`),
    );
    expect(history(pages, 89)).toBe(
      '89 earlier steps completed.\n- step 1: click ×10, all verified; last click("next-9"): page 9',
    );
  });

  it('keeps short runs, failures, other verbs and other plan steps on their own lines', () => {
    const text = history([
      at(0, 'scroll("down")'),
      at(0, 'scroll("down")'),
      at(0, 'click("4")', false, 'nothing happened'),
      at(1, 'setValue("5", "Jas")'),
      at(1, 'setValue("6", "Doe")'),
      at(1, 'setValue("7", "1990")'),
      at(2, 'click("9")', true, 'the form was saved'),
    ]);
    expect(text.split('\n')).toEqual([
      '- step 1: scroll("down") (verified)',
      '- step 1: scroll("down") (verified)',
      '- step 1: click("4") (failed: nothing happened)',
      '- step 2: setValue ×3, all verified; last setValue("7", "1990")',
      '- step 3: click("9") (verified: the form was saved)',
    ]);
  });

  it('stays the same size however long a repetitive loop runs', () => {
    let state = { previousActions: [], earlierActionCount: 0 } as unknown as InteractStateType;
    const sizes: number[] = [];
    for (let k = 0; k < 200; k++) {
      state = {
        ...state,
        ...appendPrevious(state, at(0, `click("next-${k % 10}")`, true, 'next page shown')),
      } as InteractStateType;
      if (k >= 10) sizes.push(renderHistory(state).length);
    }
    // Only the earlier-steps count changes: "1 earlier step" to "190 earlier steps".
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(3);
  });
});

describe('verificationLine', () => {
  const verified = {
    success: true,
    confidence: 0.9,
    reason: 'the list shows page 2',
    actionSucceeded: true,
    taskCompleted: false,
    goalAchieved: false,
    verificationTier: 1 as const,
    tokensSaved: 0,
  };
  const latest = entry(4);
  it('is empty when the history already shows the success and its reason', () => {
    const state = {
      lastVerification: verified,
      previousActions: [{ ...latest, reason: verified.reason }],
    } as unknown as InteractStateType;
    expect(verificationLine(state)).toBe('');
  });
  it('spells out failures and verdicts the history does not carry', () => {
    const failed = { ...verified, success: false, actionSucceeded: false, reason: 'no change' };
    expect(
      verificationLine({
        lastVerification: failed,
        previousActions: [{ ...latest, success: false, reason: 'no change' }],
      } as unknown as InteractStateType),
    ).toBe('previous action failed; goal not yet achieved (no change)');
    // A chain's partial failure or a skipped optional action adds no history entry.
    expect(
      verificationLine({
        lastVerification: { ...verified, reason: 'optional action 2 skipped' },
        previousActions: [latest],
      } as unknown as InteractStateType),
    ).toBe('previous action succeeded; goal not yet achieved (optional action 2 skipped)');
  });
});
