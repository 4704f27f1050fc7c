import { describe, expect, it } from 'vitest';
import { pageOf } from '../../testing/state';
import { renderHistory } from '../history';
import { actionGenerationPrompt } from './prompt';
import { goalOf, readActionPrompt, sectionAfter } from './read-prompt';

describe('readActionPrompt (the reader of actionGenerationPrompt)', () => {
  it('gets the goal, the page and the history back from the prompt', () => {
    const prompt = actionGenerationPrompt({
      query: 'Add a new patient named Jas Patel',
      page: pageOf([
        { i: '7', r: 'inp', n: 'First name', v: 'Jas' },
        { i: '8', r: 'btn', n: 'Save', occ: true },
      ]),
      plan: "1. Click 'Patients'",
      history: renderHistory({
        previousActions: [
          { stepIndex: 0, action: 'click("3")', thought: '', success: true, reason: 'ok' },
        ],
        earlierActionCount: 0,
      }),
      verification: '',
      rag: '',
      feedback: '',
    });
    const read = readActionPrompt(prompt);
    expect(read.goal).toBe('Add a new patient named Jas Patel');
    expect(read.elements.map((e) => [e.id, e.name, e.value, e.occluded])).toEqual([
      ['7', 'First name', 'Jas', false],
      ['8', 'Save', '', true],
    ]);
    expect(read.history.done).toBe(1);
    expect(sectionAfter(prompt, 'Plan:')).toBe("1. Click 'Patients'");
  });

  it("reads the goal of the other nodes' prompts", () => {
    expect(goalOf('Goal: Buy milk\nPage:\n')).toBe('Buy milk');
    expect(goalOf('Command: click Save')).toBe('click Save');
    expect(goalOf('no goal here')).toBe('');
  });
});
