// @vitest-environment jsdom
// The approval card in jsdom: what it says, and what Approve, Edit and
// Reject ask the worker for.
import { beforeEach, describe, expect, it } from 'vitest';
import { createLiveView, type LiveView } from './live-view-dom';
import { approvalModel, stepModel } from './live-view-model';
import type { RunState } from './run-state';

const waiting = (patch: Partial<RunState> = {}): RunState => ({
  tabId: 1,
  goal: 'Send the reminder to Maria Lopez',
  status: 'needs_approval',
  steps: [],
  updatedAt: 1,
  approval: {
    actions: [
      { action: 'setValue("2", "See you at 9")', canFail: false, index: 0 },
      { action: 'click("3")', canFail: false, index: 1 },
    ],
    isChain: true,
    risks: [{ index: 1, kind: 'message', reason: 'Sends: “Send message”' }],
    summary: 'Typed “See you at 9” into Message, then clicked “Send message”',
    url: 'http://127.0.0.1:4000/inject/messages.html',
    names: { '2': 'Message', '3': 'Send message' },
  },
  ...patch,
});

describe('the approval card', () => {
  let root: HTMLElement;
  let view: LiveView;
  let asked: string[];

  beforeEach(() => {
    document.body.replaceChildren();
    root = document.body.appendChild(document.createElement('main'));
    asked = [];
    view = createLiveView(root, {
      stop: () => undefined,
      answer: () => undefined,
      approve: (actions) => asked.push(`approve ${JSON.stringify(actions ?? null)}`),
      reject: (note) => asked.push(`reject ${note ?? ''}`),
      download: () => undefined,
      downloadExtraction: () => undefined,
    });
  });
  const render = (run: RunState | null) =>
    view.render({
      run,
      now: 2,
      stopping: false,
      sending: false,
      liveCounts: {},
      empty: 'No task yet.',
      showGoal: false,
    });
  const card = () => root.querySelector<HTMLElement>('#approval');
  const click = (id: string) => root.querySelector<HTMLButtonElement>(`#${id}`)?.click();

  it('says why and what, as instructions, only while the run waits for it', () => {
    expect(approvalModel(waiting())?.items.map((i) => i.text)).toEqual([
      'Type “See you at 9” into Message',
      'Click “Send message”',
    ]);
    render(waiting());
    expect(card()?.hidden).toBe(false);
    expect(root.querySelector('#approval-reasons')?.textContent).toBe('Sends: “Send message”');
    expect(root.querySelector('#status')?.textContent).toBe('Waiting for your approval');
    render(waiting({ status: 'running', approval: undefined }));
    expect(card()?.hidden).toBe(true);
  });

  it('approves as sent, or with the user’s edit of the typed text', () => {
    render(waiting());
    click('approve');
    click('edit-step');
    const field = root.querySelector<HTMLInputElement>('input[aria-label="Text for Message"]');
    expect(field?.hidden).toBe(false);
    if (field) field.value = 'See you at 10';
    expect(root.querySelector('#approve')?.textContent).toBe('Approve with my edits');
    click('approve');
    expect(asked).toEqual([
      'approve null',
      `approve ${JSON.stringify(['setValue("2", "See you at 10")', 'click("3")'])}`,
    ]);
  });

  it('rejects, with the note for the agent', () => {
    render(waiting());
    const note = root.querySelector<HTMLInputElement>('#reject-note');
    if (note) note.value = '  Not today ';
    click('reject');
    expect(asked).toEqual(['reject Not today']);
  });
});

describe('a step that needed approval, in the steps list', () => {
  const step = {
    index: 0,
    thought: 't',
    summary: 'Chose “Maria Lopez” in To, then clicked “Send message”',
    status: 'executing',
    at: 1,
  };
  it('reads as an instruction while it waits, and says when it never ran', () => {
    expect(stepModel({ ...step, approval: 'waiting' }).text).toBe(
      'Choose “Maria Lopez” in To, then click “Send message” (waiting for your approval)',
    );
    expect(stepModel({ ...step, approval: 'rejected' }).text).toBe(
      'Not done: choose “Maria Lopez” in To, then click “Send message” (you rejected it)',
    );
    expect(stepModel({ ...step, approval: 'approved' }).text).toBe(step.summary);
    expect(stepModel({ ...step, approval: 'edited' }).text).toBe(
      `${step.summary} (as you edited it)`,
    );
  });
});
