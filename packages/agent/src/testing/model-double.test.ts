import { describe, expect, it } from 'vitest';
import {
  act,
  answerFirst,
  answerOf,
  APPROVE,
  PAGE_IS_ENOUGH,
  type ModelCall,
  type Scenario,
} from './model-double';

const call = (node: string, goal = 'Send the form'): ModelCall => ({
  node,
  prompt: `User goal: ${goal}`,
  goal,
  images: [],
});

describe('the model double', () => {
  it('answers from a table, re-planning like planning unless the table says otherwise', () => {
    const answers = { planning: ({ goal }: ModelCall) => ({ goal }), critic: APPROVE };
    expect(answerOf(answers, call('critic'))).toBe(APPROVE);
    expect(answerOf(answers, call('replanning'))).toEqual({ goal: 'Send the form' });
    expect(answerOf({ ...answers, replanning: { steps: [] } }, call('replanning'))).toEqual({
      steps: [],
    });
    expect(answerOf(answers, call('verification'))).toBeNull();
  });

  it('takes the first scenario that applies and answers the node, else the fallback', () => {
    const form: Scenario = {
      applies: ({ goal }) => goal.includes('form'),
      answers: { critic: {} },
    };
    const always: Scenario = { applies: () => true, answers: { finalize: { answer: 'done' } } };
    const fallback = () => 'fallback';
    expect(answerFirst([form, always], call('critic'), fallback)).toEqual({});
    expect(answerFirst([form, always], call('finalize'), fallback)).toEqual({ answer: 'done' });
    expect(answerFirst([form, always], call('planning'), fallback)).toBe('fallback');
    expect(answerFirst([form], call('critic', 'Click Save'), fallback)).toBe('fallback');
  });

  it('answers context analysis that plans too from the analysis and the plan', () => {
    const steps = [{ description: 'Send it', refinable: false }];
    const page = { ...PAGE_IS_ENOUGH, reasoning: 'r' };
    const answers = { context_analysis: page, planning: { goal: 'g', steps } };
    expect(answerOf(answers, call('context_planning'))).toEqual({
      ...page,
      plan: { goal: 'g', steps },
    });
    // A search comes first: no plan yet; a scenario with no plan of its own leaves it to planning.
    const search = { ...page, source: 'WEB_SEARCH', requiredSources: ['WEB_SEARCH'] };
    expect(answerOf({ ...answers, context_analysis: search }, call('context_planning'))).toEqual({
      ...search,
      plan: null,
    });
    const scenarios: Scenario[] = [{ applies: () => true, answers: { context_analysis: page } }];
    expect(answerFirst(scenarios, call('context_planning'), () => ({}))).toEqual({
      ...page,
      plan: null,
    });
  });

  it('writes action answers with the keys in the order a model does', () => {
    const answer = act('Read it.', 'wait(1)', { readPage: { mode: 'content' }, confidence: 0.95 });
    expect(JSON.stringify(answer)).toBe(
      '{"thought":"Read it.","action":"wait(1)","chain":null,"confidence":0.95,"readPage":{"mode":"content"}}',
    );
  });
});
