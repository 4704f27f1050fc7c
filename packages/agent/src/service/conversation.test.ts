import type { Message } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { RECENT_TURNS, renderConversation } from './conversation';

let seq = 0;
const message = (role: Message['role'], content: string, actionString: string | null = null) =>
  ({ role, content, actionString, seq: ++seq }) as Message;

describe('renderConversation', () => {
  it('keeps what people said: goals, answers, questions and final answers, not step thoughts', () => {
    const text = renderConversation([
      message('user', 'Add the patient Jas'),
      message('assistant', 'Which date of birth?'),
      message('user', '2 April 1990'),
      message('assistant', 'Open the Patients menu.', 'click("3")'),
      message('assistant', 'Jas was added.', 'finish("Jas was added.")'),
      message('user', 'Delete the old record'),
      message('assistant', 'There is no old record.', 'fail("no old record")'),
    ]);
    expect(text.split('\n')).toEqual([
      'User: Add the patient Jas',
      'Agent asked: Which date of birth?',
      'User: 2 April 1990',
      'Agent finished: Jas was added.',
      'User: Delete the old record',
      'Agent could not finish: There is no old record.',
    ]);
  });

  it('summarises older turns as the goals they asked for, and keeps the last ones verbatim', () => {
    const messages = Array.from({ length: RECENT_TURNS + 4 }, (_, i) =>
      message('user', `goal ${i}`),
    );
    const lines = renderConversation(messages).split('\n');
    expect(lines[0]).toBe(
      'Earlier in this session (4 turns), the user asked: “goal 0”; “goal 1”; “goal 2”; “goal 3”.',
    );
    expect(lines.slice(1)).toEqual(
      Array.from({ length: RECENT_TURNS }, (_, i) => `User: goal ${i + 4}`),
    );
  });

  it('is empty for a session with nothing said yet, and folds long or multi-line text', () => {
    expect(renderConversation([])).toBe('');
    expect(renderConversation([message('assistant', 'thinking', 'click("1")')])).toBe('');
    const long = renderConversation([message('user', `line one\n\nline two ${'x'.repeat(600)}`)]);
    expect(long.startsWith('User: line one line two x')).toBe(true);
    expect(long.length).toBeLessThanOrEqual('User: '.length + 400);
    expect(long.endsWith('…')).toBe(true);
  });
});
