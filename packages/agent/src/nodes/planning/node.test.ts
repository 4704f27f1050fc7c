import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { applyUpdate, costOf, nodeDeps, pageOf, stateWith } from '../../testing/state';
import { planning } from './node';
import { planningSystem } from './prompt';

const page = pageOf([{ i: 'new', r: 'btn', n: 'New contact' }], {
  url: 'https://crm.example/contacts',
});
const task = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({ query: 'Add a contact named Jas Doe', complexity: 'COMPLEX', page, ...extra });

const steps = [
  { description: "Click 'New contact'", refinable: true },
  { description: 'Type Jas into First name', refinable: true },
  { description: 'Save the contact', refinable: false },
];
const planned = (output: { goal: string; steps: typeof steps }): ScriptedStep => ({
  node: 'planning',
  output,
  usage: { inputTokens: 200, outputTokens: 60 },
});

describe('planning', () => {
  it('builds the plan with step 0 active and the others pending, the call counted', async () => {
    const llm = createScriptedLlm([planned({ goal: 'Add Jas Doe', steps })], {
      zeroLatency: true,
    });
    const update = await planning(nodeDeps({ llm }))(
      task({ tokens: { input: 300, output: 40, saved: 10, calls: 1 } }),
    );

    llm.assertDone();
    expect(llm.callsFor('planning')[0]).toMatchObject({
      actionType: 'PLANNING',
      system: planningSystem,
    });
    expect(update).toEqual({
      draftPlan: null,
      hierarchicalPlan: null,
      plan: {
        goal: 'Add Jas Doe',
        steps: [
          { index: 0, description: "Click 'New contact'", refinable: true, status: 'active' },
          { index: 1, description: 'Type Jas into First name', refinable: true, status: 'pending' },
          { index: 2, description: 'Save the contact', refinable: false, status: 'pending' },
        ],
        currentStepIndex: 0,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.+Z$/) as string,
      },
      currentStepIndex: 0,
      tokens: { input: 500, output: 100, saved: 10, calls: 2, costMicroUsd: costOf(200, 60) },
    });
  });

  it('takes the plan context analysis wrote in its call, asking nothing', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const tokens = { input: 300, output: 40, saved: 0, calls: 1 };
    const drafted = task({ draftPlan: { goal: 'Add Jas Doe', steps }, tokens });
    const update = await planning(nodeDeps({ llm }))(drafted);
    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    const plan = applyUpdate(drafted, update).plan;
    expect(plan?.steps.map((s) => s.status)).toEqual(['active', 'pending', 'pending']);
    expect(update).toMatchObject({ draftPlan: null, tokens });
  });

  it('plans with the web search results and organisation knowledge, fenced as untrusted', async () => {
    const llm = createScriptedLlm([planned({ goal: 'g', steps })], { zeroLatency: true });
    await planning(nodeDeps({ llm }))(
      task({
        webSearchSummary: 'Acme VAT: FR 1',
        ragContext: { text: 'Contacts need an email', chunkIds: ['c1'], hasOrgKnowledge: true },
      }),
    );
    const prompt = llm.callsFor('planning')[0]?.prompt ?? '';
    expect(prompt).toContain(
      'Web search results (WEB_SEARCH):\n<page_content untrusted="true">\nAcme VAT: FR 1\n</page_content>',
    );
    expect(prompt).toContain(
      'Organisation knowledge:\n<page_content untrusted="true">\nContacts need an email\n</page_content>',
    );
  });

  it('multi-source synthesis: merges every required source, and names one that gave nothing', async () => {
    const llm = createScriptedLlm([planned({ goal: 'g', steps })], { zeroLatency: true });
    await planning(nodeDeps({ llm }))(
      task({
        requiredSources: ['MEMORY', 'WEB_SEARCH', 'PAGE'],
        conversation: 'User: Add the patient Jas Patel\nAgent finished: Jas Patel was added.',
        webSearchSummary: null,
      }),
    );
    const prompt = llm.callsFor('planning')[0]?.prompt ?? '';
    expect(prompt).toContain(
      'Sources this plan draws on: MEMORY, WEB_SEARCH, PAGE; each is given below.',
    );
    expect(prompt).toContain(
      'WEB_SEARCH gave nothing: no web results are available; do not assume what it would have said.',
    );
    expect(prompt).not.toContain('MEMORY gave nothing');
    expect(prompt).toContain(
      'Conversation so far (MEMORY):\n<page_content untrusted="true">\nUser: Add the patient Jas Patel',
    );
    expect(prompt).toContain('Current page (PAGE):');
  });

  it('never takes a plan without steps: the empty one is sent back for repair', async () => {
    const llm = createScriptedLlm(
      [planned({ goal: 'g', steps: [] }), planned({ goal: 'g', steps: steps.slice(0, 1) })],
      { zeroLatency: true },
    );
    const update = await planning(nodeDeps({ llm }))(task());
    llm.assertDone();
    expect(llm.attempts).toHaveLength(2);
    expect(update.plan).toMatchObject({
      steps: [{ index: 0, description: "Click 'New contact'", status: 'active' }],
    });
  });
});
