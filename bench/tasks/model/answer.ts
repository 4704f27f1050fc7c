// The scripted model's answer to one call of the agent: which graph node asks (from the system
// prompt), which task (from the goal the prompt states), and then what a competent model would
// answer for that task's script from this prompt alone (@tandem/agent's intent scripts). The
// extraction sub-agent's calls are the double's: answered from the content in their prompt.
import {
  answerOf,
  scriptAnswers,
  startModelDouble,
  USUAL_ANSWERS,
  type ModelCall,
  type ModelDouble,
} from '@tandem/agent/testing/model-double';
import { jobCardsIn } from '@tandem/demo-sites';
import { scriptByGoal } from '../catalogue/index';

const ANSWERS = {
  ...USUAL_ANSWERS,
  ...scriptAnswers(scriptByGoal, {}, jobCardsIn),
};

export const answer = (call: ModelCall): unknown => answerOf(ANSWERS, call) ?? {};

/**
 * This model behind the Gemini wire, keeping every request: the prefix share is measured
 * offline from what the provider actually saw, not from what the agent meant to send.
 * `latencyMs`: how long each answer takes, as a real model's would (≈ 1 s for a small
 * structured answer from a fast model): without it a scripted call is free, and wall time
 * shows only the round trips, never what fewer model calls save a user.
 */
export const startScriptedModel = (latencyMs = 0): Promise<ModelDouble> =>
  startModelDouble(answer, {
    record: true,
    ...(latencyMs > 0 ? { before: () => new Promise((r) => setTimeout(r, latencyMs)) } : {}),
  });
