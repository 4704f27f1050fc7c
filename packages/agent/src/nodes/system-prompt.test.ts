import { describe, expect, it } from 'vitest';
import { UNTRUSTED_CONTENT_RULE } from '../page/page-state';
import { pageOf } from '../testing/state';
import { actionGenerationPrompt, actionGenerationSystemFor } from './action-generation/prompt';
import { contextAndPlanSystem, contextAnalysisSystem } from './context-analysis/prompt';
import { correctionSystem } from './correction/prompt';
import { criticSystem } from './critic/prompt';
import { directActionSystem } from './direct-action/prompt';
import { finalAnswerSystem } from './finalize/prompt';
import { outcomePredictionSystem } from './outcome-prediction/node';
import { planningSystem } from './planning/prompt';
import { replanningSystem } from './replanning/prompt';
import { nodeInstructions, SYSTEM_PREAMBLE, systemPrompt } from './system-prompt';
import { verificationSystem } from './verification/prompt';

const SYSTEMS = {
  actionGeneration: actionGenerationSystemFor([]),
  actionGenerationWithRules: actionGenerationSystemFor(['A part rule.']),
  contextAnalysis: contextAnalysisSystem,
  contextAndPlan: contextAndPlanSystem,
  correction: correctionSystem,
  critic: criticSystem,
  directAction: directActionSystem,
  finalAnswer: finalAnswerSystem,
  outcomePrediction: outcomePredictionSystem,
  planning: planningSystem,
  replanning: replanningSystem,
  verification: verificationSystem,
};

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

describe('system prompts', () => {
  it.each(Object.entries(SYSTEMS))(
    '%s opens with the shared preamble, the untrusted-content rule, said once',
    (_, system) => {
      expect(SYSTEM_PREAMBLE).toBe(UNTRUSTED_CONTENT_RULE);
      expect(system.startsWith(`${SYSTEM_PREAMBLE}\n`)).toBe(true);
      expect(system.split(UNTRUSTED_CONTENT_RULE)).toHaveLength(2);
    },
  );

  it('nodeInstructions strips the preamble and nothing else', () => {
    expect(nodeInstructions(systemPrompt(['Line one.', 'Line two.']))).toBe('Line one.\nLine two.');
    expect(nodeInstructions('No preamble here.')).toBe('No preamble here.');
  });
});

describe('action prompt order', () => {
  const page = pageOf([]);
  const base = {
    query: 'Add a contact named Jas Doe',
    page,
    plan: '1. Fill the name\n2. Save',
    rag: '',
    feedback: '',
    verification: '',
  };

  it('keeps the plan and what came before it ahead of what changes each step', () => {
    const first = actionGenerationPrompt({
      ...base,
      history: '(no actions yet)',
      progress: 'now at step 1 (Fill the name); no step done yet',
    });
    const second = actionGenerationPrompt({
      ...base,
      history: '- step 1: setValue("3", "Jas Doe") (verified)',
      progress: 'now at step 2 (Save); steps 1 done',
      web: 'Jas Doe works at Acme.',
    });
    const shared = commonPrefix(first, second);
    // Web results a googleSearch() brought mid-task come after the plan.
    expect(second.indexOf('Plan:\n')).toBeLessThan(second.indexOf('Web search results:'));
    expect(shared).toBeGreaterThan(first.indexOf('2. Save'));
    expect(second.indexOf('Previous actions:')).toBeLessThan(second.indexOf('Current page:'));
  });
});
