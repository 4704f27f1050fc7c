import { describe, expect, it } from 'vitest';
import { routeAfterDispatch } from '../../routes';
import { applyUpdate, pageOf, pendingOf, stateWith } from '../../testing/state';
import { dispatch, type ResumeInput } from './node';

const page = pageOf(
  [
    { i: 'to', r: 'inp', n: 'To' },
    { i: 'body', r: 'txt', n: 'Message' },
    { i: 'send', r: 'btn', n: 'Send' },
  ],
  { url: 'https://mail.example/compose' },
);
const chain = {
  actions: [
    { action: 'setValue("body", "See you at 9")', description: 'Message', index: 0 },
    { action: 'click("send")', description: 'Send', index: 1 },
  ],
  metadata: { totalActions: 2, safeToChain: true },
};
const paused = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    page,
    complexity: 'COMPLEX',
    requestCount: 2,
    pending: {
      ...pendingOf('setValue("body", "See you at 9")'),
      chain,
      targets: [
        { id: 'body', role: 'txt', name: 'Message' },
        { id: 'send', role: 'btn', name: 'Send' },
      ],
    },
    outcome: { kind: 'action' },
    ...extra,
  });
const resumeWith = (approval: ResumeInput['approval']) => ({
  context: {
    resume: { page, ragContext: { text: '', chunkIds: [], hasOrgKnowledge: false }, approval },
  },
});

describe('dispatch: the user decided on an approval card', () => {
  it('approved: verified as sent', async () => {
    const state = paused();
    const update = await dispatch()(state, resumeWith({ decision: 'approved' }));
    expect(update).not.toHaveProperty('pending');
    expect(routeAfterDispatch(applyUpdate(state, update))).toBe('verification');
  });

  it('edited: verified as the user changed it', async () => {
    const state = paused();
    const update = await dispatch()(
      state,
      resumeWith({
        decision: 'edited',
        actions: ['setValue("body", "See you at 10")', 'click("send")'],
      }),
    );
    const edited = applyUpdate(state, update).pending;
    expect(edited?.action).toEqual({
      name: 'setValue',
      args: { id: 'body', text: 'See you at 10' },
    });
    expect(edited?.chain?.actions.map((a) => a.action)).toEqual([
      'setValue("body", "See you at 10")',
      'click("send")',
    ]);
    expect(routeAfterDispatch(applyUpdate(state, update))).toBe('verification');
  });

  it('an edit that changes more than text is refused and fails the task', async () => {
    const update = await dispatch()(
      paused(),
      resumeWith({ decision: 'edited', actions: ['setValue("to", "x")', 'click("send")'] }),
    );
    expect(update.outcome).toMatchObject({
      kind: 'refused',
      code: 'VALIDATION_ERROR',
      failTask: true,
    });
    expect(routeAfterDispatch(applyUpdate(paused(), update))).toBe('__end__');
  });

  it('rejected: nothing to verify; the model hears it and may not send it again', async () => {
    const state = paused();
    const update = await dispatch()(state, resumeWith({ decision: 'rejected', note: 'Not today' }));
    expect(update).toMatchObject({
      resumedFromPageRead: true,
      rejectedActions: ['setValue("body", "See you at 9")', 'click("send")'],
      lastVerification: {
        success: false,
        reason: 'You rejected it: “Not today”',
      },
    });
    expect(update.criticFeedback).toMatch(
      /^The user rejected setValue\("body", "See you at 9"\); click\("send"\): “Not today”\. Nothing was executed/,
    );
    expect(routeAfterDispatch(applyUpdate(state, update))).toBe('action_generation');
  });

  it('rejected on a single command: the task ends, failed, saying so', async () => {
    const state = paused({
      complexity: 'SIMPLE',
      pending: {
        ...pendingOf('click("send")'),
        targets: [{ id: 'send', role: 'btn', name: 'Send' }],
      },
    });
    const update = await dispatch()(state, resumeWith({ decision: 'rejected' }));
    expect(update).toMatchObject({ status: 'failed', result: 'You rejected “Clicked “Send””.' });
    expect(routeAfterDispatch(applyUpdate(state, update))).toBe('finalize');
  });
});
