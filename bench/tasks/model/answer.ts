// The scripted model's answer to one call of the agent: which graph node asks (from the system
// prompt), which task (from the goal the prompt states), and then what a competent model would
// answer for that task from this prompt alone. Element ids are always read from the prompt.
import {
  collectAction,
  extractAction,
  act,
  answerOf,
  elementsIn,
  sectionAfter,
  startModelDouble,
  USUAL_ANSWERS,
  verdict,
  type ModelCall,
  type ModelDouble,
} from '@tandem/agent/testing/model-double';
import { jobCardsIn } from '@tandem/demo-sites';
import { answerFromPrompt } from '@tandem/extraction/testing';
import { taskByGoal } from '../catalogue/index';
import type { BenchTask } from '../task';
import { directAction, nextAction, planStep } from './steps';

function planFor(task: BenchTask | undefined, from = 0) {
  const script = task?.script;
  if (!script) return [{ description: 'Finish', refinable: false }];
  if (script.kind === 'extract')
    return [{ description: 'Extract the products of each page asked for', refinable: false }];
  if (script.kind === 'collect')
    return [{ description: 'Collect every listing, page by page', refinable: false }];
  const steps = script.intents.slice(from).map(planStep);
  return steps.length > 0 ? steps : [{ description: 'Finish the goal', refinable: false }];
}

function actionFor(task: BenchTask | undefined, prompt: string): unknown {
  const script = task?.script;
  if (!task || !script) return act('Unknown goal.', `fail("The bench has no task for this goal")`);
  if (script.kind === 'extract') return extractAction(script, prompt);
  if (script.kind === 'collect') return collectAction(script, prompt, jobCardsIn);
  return nextAction(script.intents, task.goal, prompt);
}

/** The page shows the text that means the goal is met (the goal line itself left out). */
function showsDone(task: BenchTask | undefined, prompt: string): boolean {
  const script = task?.script;
  if (script?.kind !== 'steps' || !script.done) return false;
  return script.done.test(prompt.split('\n').slice(1).join('\n'));
}

/** What the outcome of an action on a link is: a new URL. */
function predictOutcome({ prompt }: ModelCall): unknown {
  const id = /^Action: \w+\("([^"]+)"/m.exec(prompt)?.[1];
  const target = elementsIn(prompt).find((e) => e.id === id);
  return {
    description: target ? `"${target.name}" responds` : 'The page responds to the action',
    urlShouldChange: target?.role === 'link',
    nextGoal: null,
  };
}

/** Steps already done, as re-planning's prompt lists them. */
function stepsDone(prompt: string): number {
  const done = sectionAfter(prompt, 'Steps done so far:');
  return done === '(none)' ? 0 : done.split('\n').filter(Boolean).length;
}

export function answer(call: ModelCall): unknown {
  const { node, prompt, goal } = call;
  // The extraction sub-agent's calls name no goal: answered from the content in the prompt.
  if (node === 'extraction') return answerFromPrompt(prompt);
  const task = taskByGoal(goal);
  return (
    answerOf(
      {
        ...USUAL_ANSWERS,
        planning: { goal, steps: planFor(task) },
        replanning: { goal, steps: planFor(task, stepsDone(prompt)) },
        action_generation: () => actionFor(task, prompt),
        direct_action: () =>
          task?.script.kind === 'steps'
            ? directAction(task.script.intents, prompt)
            : {
                thought: 'Unknown command.',
                action: 'fail("The bench has no task for this command")',
              },
        outcome_prediction: predictOutcome,
        verification: () => {
          const done = showsDone(task, prompt);
          return verdict(
            done,
            done ? 'The page shows the goal is met.' : 'The action took effect.',
            0.9,
          );
        },
        finalize: () => {
          const shown = sectionAfter(prompt, 'What the page shows now:').split('\n')[1];
          return { answer: shown ? `Done: ${goal}. The page says: ${shown}` : `Done: ${goal}.` };
        },
      },
      call,
    ) ?? {}
  );
}

export type ScriptedModel = ModelDouble;

/** This model behind the Gemini wire (startModelDouble). */
export const startScriptedModel = (): Promise<ScriptedModel> => startModelDouble(answer);
