import type { ParsedAction } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { upgradePending } from '../pending-action';
import { pageOf, pageWith, pendingOf, planOf, stateWith } from '../../testing/state';
import { dispatch, type ResumeInput } from './node';

const resume: ResumeInput = {
  page: pageOf([{ i: 'save', r: 'btn', n: 'Save' }], { url: 'https://crm.example/after' }),
  ragContext: { text: 'Contacts need an email', chunkIds: ['c1'], hasOrgKnowledge: true },
};
const paused = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    page: pageWith({ url: 'https://crm.example/before' }),
    requestCount: 3,
    pending: pendingOf('click("save")'),
    outcome: { kind: 'action' },
    ...extra,
  });

/** A pending action as checkpoints held it before it was typed: grammar text. */
const legacy = (text: string) => ({
  ...pendingOf('click("save")'),
  action: text as unknown as ParsedAction,
});

describe('dispatch', () => {
  it('takes the resume page and RAG context, counts the request and clears the outcome', async () => {
    const update = await dispatch()(paused(), { context: { resume } });
    expect(update).toEqual({
      page: resume.page,
      ragContext: resume.ragContext,
      requestCount: 4,
      resumedFromPageRead: false,
      pageRequest: null,
      outcome: null,
    });
    // A pending action that is already parsed is left as it is.
    expect(update).not.toHaveProperty('pending');
  });

  it('detects the answer to a page read: nothing was executed, so nothing is verified', async () => {
    const state = paused({ pageRequest: { mode: 'outline' }, outcome: null });
    const update = await dispatch()(state, { context: { resume } });
    expect(update).toMatchObject({ resumedFromPageRead: true, pageRequest: null, outcome: null });
  });

  it('upgrades a checkpoint whose pending action is grammar text', async () => {
    const update = await dispatch()(paused({ pending: legacy('click("save")') }), {
      context: { resume },
    });
    expect(update.pending).toEqual({
      ...pendingOf('click("save")'),
      action: { name: 'click', args: { id: 'save' } },
    });
  });

  it('upgradePending: parses grammar text, leaves parsed, unparsable and absent ones alone', () => {
    expect(upgradePending(legacy('scroll("down")'))?.action).toEqual({
      name: 'scroll',
      args: { direction: 'down' },
    });
    const parsed = pendingOf('click("save")');
    expect(upgradePending(parsed)).toBe(parsed);
    const garbled = legacy('clik(save');
    expect(upgradePending(garbled)).toBe(garbled);
    expect(upgradePending(null)).toBeNull();
  });

  it('refuses from now on an action the browser blocked, and only that action', async () => {
    const blocked = (error: string, extra: Partial<ResumeInput['page']> = {}) =>
      ({
        ...resume,
        page: { ...resume.page, lastActionStatus: 'failure', lastActionError: error, ...extra },
      }) as ResumeInput;
    const off = "blocked: the page went to evil.example, which is not one of this task's sites";
    const single = await dispatch()(paused(), { context: { resume: blocked(off) } });
    expect(single.rejectedActions).toEqual(['click("save")']);
    // Already refused: nothing new is written.
    const again = await dispatch()(paused({ rejectedActions: ['click("save")'] }), {
      context: { resume: blocked(off) },
    });
    expect(again).not.toHaveProperty('rejectedActions');
    // A chain: the action it stopped at, after the last one executed.
    const chain = await dispatch()(
      paused({ pending: pendingOf('setValue("0", "x")', { chain: true }) }),
      {
        context: { resume: blocked(off, { lastExecutedActionIndex: 0 }) },
      },
    );
    expect(chain.rejectedActions).toEqual(['setValue("1", "x")']);
    // Any other failure is for verification and correction to judge.
    const other = await dispatch()(paused(), {
      context: { resume: blocked('not_found: no element "save"') },
    });
    expect(other).not.toHaveProperty('rejectedActions');
  });

  it('runs only when a request resumes the task', async () => {
    await expect(dispatch()(paused())).rejects.toThrow(
      'dispatch runs only when a request resumes the task',
    );
    await expect(dispatch()(paused(), { context: {} })).rejects.toThrow(/resumes the task/);
  });
});

describe('dispatch: a changed page under the plan', () => {
  const tree = [
    { i: 'patients', r: 'btn', n: 'Patients' },
    { i: 'dash', r: 'link', n: 'Dashboard' },
  ];
  const planned = (extra: Parameters<typeof stateWith>[0] = {}) =>
    paused({
      plan: planOf(["Click 'Patients'", "Click 'New/Search'"]),
      page: pageOf(tree, { url: 'https://emr.example/' }),
      ...extra,
    });
  const resumeOn = (url: string, nodes = tree) => ({
    context: { resume: { ...resume, page: pageOf(nodes, { url }) } },
  });

  it('flags a new URL path, and a page that re-rendered into another', async () => {
    const moved = await dispatch()(planned(), resumeOn('https://emr.example/patients/new'));
    expect(moved.replanSignal).toEqual({ reason: 'url_path_changed', similarity: 1 });
    const login = [
      { i: 'u', r: 'inp', n: 'Username' },
      { i: 'p', r: 'inp', n: 'Password' },
      { i: 's', r: 'btn', n: 'Sign in' },
    ];
    const swapped = await dispatch()(planned(), resumeOn('https://emr.example/', login));
    expect(swapped.replanSignal).toMatchObject({ reason: 'dom_changed' });
  });

  it('does not flag a query change, a cosmetic change, a page read or an unplanned task', async () => {
    const renumbered = tree.map((n, k) => ({ ...n, i: `x${k}` }));
    for (const update of [
      await dispatch()(planned(), resumeOn('https://emr.example/?tab=2')),
      await dispatch()(planned(), resumeOn('https://emr.example/', renumbered)),
      await dispatch()(
        planned({ pageRequest: { mode: 'outline' } }),
        resumeOn('https://emr.example/patients/new'),
      ),
      await dispatch()(planned({ plan: null }), resumeOn('https://emr.example/patients/new')),
    ]) {
      expect(update.replanSignal).toBeUndefined();
    }
  });
});
