// Which graph node a model call comes from, read from its system prompt: what a fake model
// server (e2e, bench) needs to answer like the node's model would. Built from the agent's own
// system prompts, so a reworded prompt cannot silently stop the fakes from recognising it.
import { extractionSystem } from '@tandem/extraction';
import { actionGenerationSystem } from '../nodes/action-generation/prompt';
import { ALSO_PLAN, contextAnalysisSystem } from '../nodes/context-analysis/prompt';
import { correctionSystem } from '../nodes/correction/prompt';
import { criticSystem } from '../nodes/critic/prompt';
import { directActionSystem } from '../nodes/direct-action/prompt';
import { finalAnswerSystem } from '../nodes/finalize/prompt';
import { outcomePredictionSystem } from '../nodes/outcome-prediction/node';
import { planningSystem } from '../nodes/planning/prompt';
import { replanningSystem } from '../nodes/replanning/prompt';
import { nodeInstructions } from '../nodes/system-prompt';
import { verificationSystem } from '../nodes/verification/prompt';
import { EVALUATOR_SYSTEM } from '../web-search/manage-search';

/** The first line of a node's own instructions (every system prompt opens with one preamble). */
const firstLine = (system: string) => {
  const own = nodeInstructions(system);
  return own.split('\n', 1)[0] ?? own;
};

/**
 * Each node's signature: the first line of its own instructions (after the shared preamble).
 * Re-planning extends planning's prompt, and context analysis with a plan joins both, so their
 * signature is the line they add, tried first.
 */
const SIGNATURES: [node: string, signature: string][] = [
  // Context analysis that plans too carries planning's prompt: tried before planning.
  ['context_planning', ALSO_PLAN],
  ['replanning', replanningSystem.slice(planningSystem.length).trim()],
  ['planning', firstLine(planningSystem)],
  ['context_analysis', firstLine(contextAnalysisSystem)],
  ['action_generation', firstLine(actionGenerationSystem)],
  ['outcome_prediction', firstLine(outcomePredictionSystem)],
  ['verification', firstLine(verificationSystem)],
  ['correction', firstLine(correctionSystem)],
  ['direct_action', firstLine(directActionSystem)],
  ['web_search', firstLine(EVALUATOR_SYSTEM)],
  ['finalize', firstLine(finalAnswerSystem)],
  ['extraction', firstLine(extractionSystem({ structured: false, strict: false }))],
  ['critic', firstLine(criticSystem)],
];

/** The graph node whose system prompt this is, or 'unknown'. */
export function nodeOfSystem(system: string): string {
  return SIGNATURES.find(([, signature]) => system.includes(signature))?.[0] ?? 'unknown';
}
