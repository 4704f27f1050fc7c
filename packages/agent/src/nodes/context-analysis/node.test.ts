import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { costOf, nodeDeps, pageOf, stateWith } from '../../testing/state';
import { contextAnalysis } from './node';
import { contextAndPlanSystem, contextAnalysisSystem } from './prompt';

const page = pageOf([{ i: 'vat', r: 'inp', n: 'VAT number' }], {
  url: 'https://crm.example/company',
});
const task = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({ query: "Fill in Acme's VAT number", complexity: 'COMPLEX', page, ...extra });

type Analysis = {
  plan?: unknown;
  source: 'MEMORY' | 'PAGE' | 'WEB_SEARCH' | 'ASK_USER';
  requiredSources?: ('MEMORY' | 'PAGE' | 'WEB_SEARCH' | 'ASK_USER')[];
  missingInformation?: string[];
  searchQuery?: string | null;
  reasoning?: string;
};

const analysis = (output: Analysis): ScriptedStep => ({
  node: 'context_analysis',
  output: {
    requiredSources: [],
    missingInformation: [],
    searchQuery: null,
    reasoning: 'because',
    ...output,
  },
  usage: { inputTokens: 300, outputTokens: 40, totalTokens: 340 },
});

const TOKENS = { input: 300, output: 40, saved: 0, calls: 1, costMicroUsd: costOf(300, 40) };

describe('context_analysis', () => {
  it('PAGE: records the sources and goes on to plan, the call counted', async () => {
    const llm = createScriptedLlm([analysis({ source: 'PAGE' })], { zeroLatency: true });
    const update = await contextAnalysis(nodeDeps({ llm }))(task());

    llm.assertDone();
    const [call] = llm.callsFor('context_analysis');
    // No plan yet: the same call is asked for it (one call for both).
    expect(call).toMatchObject({
      actionType: 'CONTEXT_ANALYSIS',
      system: contextAndPlanSystem,
      alsoFor: [{ node: 'planning', actionType: 'PLANNING', field: 'plan' }],
    });
    expect(call?.prompt).toContain("User goal: Fill in Acme's VAT number");
    expect(call?.prompt).toContain('Organisation knowledge: (none)');
    expect(update).toEqual({
      requiredSources: ['PAGE'],
      missingInformation: [],
      searchQuery: null,
      draftPlan: null,
      tokens: TOKENS,
    });
  });

  it('keeps the plan written in the same call for planning, unless a search must come first', async () => {
    const plan = {
      goal: 'Fill the VAT number',
      steps: [{ description: 'Type it', refinable: false }],
    };
    const planned = createScriptedLlm([analysis({ source: 'PAGE', plan } as Analysis)], {
      zeroLatency: true,
    });
    expect(await contextAnalysis(nodeDeps({ llm: planned }))(task())).toMatchObject({
      draftPlan: plan,
    });
    const searching = createScriptedLlm(
      [analysis({ source: 'WEB_SEARCH', searchQuery: 'Acme VAT', plan } as Analysis)],
      { zeroLatency: true },
    );
    expect(await contextAnalysis(nodeDeps({ llm: searching }))(task())).toMatchObject({
      draftPlan: null,
    });
  });

  it('a task that already has a plan (resumed with an answer) is analysed alone', async () => {
    const llm = createScriptedLlm([analysis({ source: 'PAGE' })], { zeroLatency: true });
    const plan = {
      goal: 'g',
      steps: [{ index: 0, description: 'Type it', refinable: false, status: 'active' as const }],
      currentStepIndex: 0,
      createdAt: '2026-11-30T00:00:00.000Z',
    };
    await contextAnalysis(nodeDeps({ llm }))(task({ plan }));
    expect(llm.callsFor('context_analysis')[0]).toMatchObject({ system: contextAnalysisSystem });
    expect(llm.callsFor('context_analysis')[0]?.alsoFor).toBeUndefined();
  });

  it('WEB_SEARCH: keeps the refined query and every source once, the main one first', async () => {
    const llm = createScriptedLlm(
      [
        analysis({
          source: 'WEB_SEARCH',
          requiredSources: ['PAGE', 'WEB_SEARCH'],
          missingInformation: ['VAT number of Acme'],
          searchQuery: 'Acme SAS VAT number',
        }),
      ],
      { zeroLatency: true },
    );
    const update = await contextAnalysis(nodeDeps({ llm }))(task());
    expect(update).toEqual({
      requiredSources: ['WEB_SEARCH', 'PAGE'],
      missingInformation: ['VAT number of Acme'],
      searchQuery: 'Acme SAS VAT number',
      draftPlan: null,
      tokens: TOKENS,
    });
  });

  it('shows organisation knowledge to the model, fenced as untrusted', async () => {
    const llm = createScriptedLlm([analysis({ source: 'MEMORY' })], { zeroLatency: true });
    await contextAnalysis(nodeDeps({ llm }))(
      task({
        ragContext: { text: 'Acme VAT: FR 1', chunkIds: ['c1'], hasOrgKnowledge: true },
      }),
    );
    expect(llm.callsFor('context_analysis')[0]?.prompt).toContain(
      'Organisation knowledge:\n<page_content untrusted="true">\nAcme VAT: FR 1\n</page_content>',
    );
  });

  it('ASK_USER: ends the run asking for the missing information, with the usage of the call', async () => {
    const llm = createScriptedLlm(
      [
        analysis({
          source: 'ASK_USER',
          missingInformation: ['date of birth', 'passport number'],
          reasoning: 'Only the user knows them',
        }),
      ],
      { zeroLatency: true },
    );
    const update = await contextAnalysis(nodeDeps({ llm }))(task());
    expect(update).toEqual({
      requiredSources: ['ASK_USER'],
      missingInformation: ['date of birth', 'passport number'],
      searchQuery: null,
      draftPlan: null,
      tokens: TOKENS,
      outcome: {
        kind: 'ask_user',
        message: 'I need the following information to continue: date of birth, passport number.',
        missingInformation: ['date of birth', 'passport number'],
        thought: 'Only the user knows them',
      },
      // The task pauses on the question; the answer resumes it here.
      question: {
        askedBy: 'context_analysis',
        message: 'I need the following information to continue: date of birth, passport number.',
      },
      questionsAsked: 1,
    });
  });

  it('asks the user when ASK_USER is only among the required sources, with the reasoning when nothing is listed', async () => {
    const llm = createScriptedLlm(
      [
        analysis({
          source: 'PAGE',
          requiredSources: ['ASK_USER'],
          reasoning: 'The goal does not say which account',
        }),
      ],
      { zeroLatency: true },
    );
    const update = await contextAnalysis(nodeDeps({ llm }))(task());
    expect(update).toMatchObject({
      requiredSources: ['PAGE', 'ASK_USER'],
      outcome: {
        kind: 'ask_user',
        message: 'I need more information to do this: The goal does not say which account',
        missingInformation: [],
      },
    });
  });
});
