import { extractionSystem } from '@tandem/extraction';
import { describe, expect, it } from 'vitest';
import { HYBRID_PROMPT_RULES } from '../capture/action-part';
import { COLLECT_PROMPT_RULES } from '../collect/model-output';
import { actionGenerationSystemFor } from '../nodes/action-generation/prompt';
import { contextAndPlanSystem, contextAnalysisSystem } from '../nodes/context-analysis/prompt';
import { criticSystem } from '../nodes/critic/prompt';
import { EXTRACT_PROMPT_RULES } from '../nodes/extraction/model-extract';
import { outcomePredictionSystem } from '../nodes/outcome-prediction/node';
import { planningSystem } from '../nodes/planning/prompt';
import { replanningSystem } from '../nodes/replanning/prompt';
import { EVALUATOR_SYSTEM } from '../web-search/manage-search';
import { nodeOfSystem } from './node-of-system';

describe('nodeOfSystem', () => {
  it('names the node of each system prompt, re-planning and planning analysis apart from planning', () => {
    expect(nodeOfSystem(planningSystem)).toBe('planning');
    expect(nodeOfSystem(replanningSystem)).toBe('replanning');
    expect(nodeOfSystem(contextAnalysisSystem)).toBe('context_analysis');
    expect(nodeOfSystem(contextAndPlanSystem)).toBe('context_planning');
    expect(nodeOfSystem(outcomePredictionSystem)).toBe('outcome_prediction');
    expect(nodeOfSystem(criticSystem)).toBe('critic');
    expect(nodeOfSystem(EVALUATOR_SYSTEM)).toBe('web_search');
    expect(nodeOfSystem(extractionSystem({ structured: true, strict: true }))).toBe('extraction');
    expect(nodeOfSystem('something else')).toBe('unknown');
  });

  it('recognises every variant of the action prompt', () => {
    for (const rules of [
      [],
      [COLLECT_PROMPT_RULES],
      [EXTRACT_PROMPT_RULES],
      [HYBRID_PROMPT_RULES],
      [HYBRID_PROMPT_RULES, COLLECT_PROMPT_RULES, EXTRACT_PROMPT_RULES],
    ]) {
      expect(nodeOfSystem(actionGenerationSystemFor(rules))).toBe('action_generation');
    }
  });
});
