// The scripted model's answer to one call of the agent: which graph node asks (from the system
// prompt), which task (from the goal the prompt states), and then what a competent model would
// answer for that task's script from this prompt alone (@tandem/agent's intent scripts).
import {
  answerOf,
  scriptAnswers,
  startModelDouble,
  USUAL_ANSWERS,
  type ModelCall,
  type ModelDouble,
} from '@tandem/agent/testing/model-double';
import { jobCardsIn } from '@tandem/demo-sites';
import { answerFromPrompt } from '@tandem/extraction/testing';
import { scriptByGoal } from '../catalogue/index';

const ANSWERS = {
  ...USUAL_ANSWERS,
  ...scriptAnswers(scriptByGoal, {}, jobCardsIn),
};

export function answer(call: ModelCall): unknown {
  // The extraction sub-agent's calls name no goal: answered from the content in the prompt.
  if (call.node === 'extraction') return answerFromPrompt(call.prompt);
  return answerOf(ANSWERS, call) ?? {};
}

export type ScriptedModel = ModelDouble;

/** This model behind the Gemini wire (startModelDouble). */
export const startScriptedModel = (): Promise<ScriptedModel> => startModelDouble(answer);
