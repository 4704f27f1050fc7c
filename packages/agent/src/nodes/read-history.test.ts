import { describe, expect, it } from 'vitest';
import type { PreviousAction } from '../state';
import { renderHistory } from './history';
import { historyOf } from './read-history';

const action = (
  stepIndex: number,
  text: string,
  success: boolean | null = true,
): PreviousAction => ({
  stepIndex,
  action: text,
  thought: '',
  success,
  reason: success === false ? 'nothing changed' : null,
});

/** The history as the action prompt shows it. */
const promptWith = (previousActions: PreviousAction[], earlierActionCount = 0) =>
  `User goal: g\n\nPrevious actions:\n${renderHistory({ previousActions, earlierActionCount })}\n\nCurrent page:\n`;

describe('historyOf (the reader of renderHistory)', () => {
  it('counts the verified actions that did something, earlier ones included', () => {
    const history = historyOf(
      promptWith(
        [
          action(0, 'click("1")'),
          action(1, 'wait(1)'),
          action(2, 'click("9")', false),
          action(2, 'setValue("2", "a"); setValue("3", "b"); click("4")'),
        ],
        3,
      ),
    );
    // 3 earlier + the click + the chain and the button it pressed; the wait and the failure not.
    expect(history.done).toBe(6);
    expect(history.trailingScrolls).toBe(0);
  });

  it('reads a run of scrolls folded into one line, and its direction', () => {
    const scrolls = [0, 1, 2, 3].map(() => action(1, 'scroll("down")'));
    const history = historyOf(promptWith([action(0, 'click("1")'), ...scrolls]));
    expect(history).toEqual({ done: 1, trailingScrolls: 4, lastScroll: 'down', netScrollDown: 4 });
  });

  it('reads an empty history', () => {
    expect(historyOf(promptWith([])).done).toBe(0);
  });
});
