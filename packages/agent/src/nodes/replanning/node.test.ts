// The replanning node on its three verdicts: continue and modify need no model; regenerate
// asks the planner once (action type REPLANNING) and keeps the steps already done.
import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '@tandem/llm/testing';
import { applyUpdate, nodeDeps, pageOf, planOf, stateWith } from '../../testing/state';
import { replanning } from './node';

const plan = planOf(
  ["Click 'Patients'", "Click 'New/Search'", 'Type Jas into First name', "Click 'Save'"],
  1,
);
const signal = { reason: 'url_path_changed' as const, similarity: 0.2 };
const form = pageOf(
  [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'save', r: 'btn', n: 'Save' },
  ],
  { url: 'https://emr.example/patients/new' },
);
const menu = pageOf([{ i: 'ns', r: 'link', n: 'New/Search' }], { url: 'https://emr.example/' });
const login = pageOf(
  [
    { i: 'user', r: 'inp', n: 'Username' },
    { i: 'pw', r: 'inp', n: 'Password' },
    { i: 'in', r: 'btn', n: 'Sign in' },
  ],
  { url: 'https://emr.example/login' },
);

async function run(page: typeof form, llm = createScriptedLlm([])) {
  const before = stateWith({ plan, currentStepIndex: 1, page, replanSignal: signal });
  const update = await replanning(nodeDeps({ llm }))(before);
  return { after: applyUpdate(before, update), llm };
}

describe('replanning', () => {
  it('continues when the next step’s target is on the new page, without a model', async () => {
    const { after, llm } = await run(menu);
    expect(after).toMatchObject({ replanSignal: null, rePlanning: false, replanCount: 0 });
    expect(after.plan).toBe(plan);
    expect(llm.calls).toHaveLength(0);
  });

  it('skips the steps this page moved past (modify), without a model', async () => {
    const { after, llm } = await run(form);
    expect(after).toMatchObject({ rePlanning: true, replanCount: 1, currentStepIndex: 2 });
    expect(after.plan?.steps.map((s) => s.status)).toEqual([
      'completed',
      'skipped',
      'active',
      'pending',
    ]);
    expect(llm.calls).toHaveLength(0);
  });

  it('regenerates the rest of the plan from a page it was not made for', async () => {
    const llm = createScriptedLlm([
      {
        node: 'replanning',
        output: {
          goal: 'sign in, then add the patient',
          steps: [
            { description: 'Type admin into Username', refinable: true },
            { description: "Click 'Sign in'", refinable: true },
          ],
        },
      },
    ]);
    const { after } = await run(login, llm);
    expect(after).toMatchObject({ rePlanning: true, replanCount: 1, currentStepIndex: 1 });
    expect(after.plan?.steps.map((s) => [s.description, s.status])).toEqual([
      ["Click 'Patients'", 'completed'],
      ['Type admin into Username', 'active'],
      ["Click 'Sign in'", 'pending'],
    ]);
    expect(llm.calls[0]?.actionType).toBe('REPLANNING');
    expect(llm.calls[0]?.prompt).toContain('The old remaining steps, which no longer fit the page');
    expect(after.tokens.calls).toBe(1);
  });
});
