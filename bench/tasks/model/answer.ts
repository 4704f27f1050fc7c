// The scripted model's answer to one call of the agent: which graph node asks (from the system
// prompt), which task (from the goal the prompt states), and then what a competent model would
// answer for that task from this prompt alone. Element ids are always read from the prompt.
import {
  APPROVE,
  elementsIn,
  goalOf,
  nodeOfSystem,
  PAGE_IS_ENOUGH,
  RETRY_WITH_DELAY,
  sectionAfter,
} from '@tandem/agent/testing/model-double';
import { answerFromPrompt } from '@tandem/extraction/testing';
import { answeringWith, startGeminiWire, type GeminiWire } from '@tandem/llm/testing';
import { taskByGoal } from '../catalogue/index';
import type { BenchTask } from '../task';
import { collectAction, extractAction } from './data';
import { directAction, nextAction, planStep } from './steps';

function planFor(task: BenchTask, from = 0): { description: string; refinable: boolean }[] {
  const script = task.script;
  if (script.kind === 'extract')
    return [{ description: 'Extract the products of each page asked for', refinable: false }];
  if (script.kind === 'collect')
    return [{ description: 'Collect every listing, page by page', refinable: false }];
  const steps = script.intents.slice(from).map(planStep);
  return steps.length > 0 ? steps : [{ description: 'Finish the goal', refinable: false }];
}

function actionFor(task: BenchTask, prompt: string): unknown {
  const script = task.script;
  if (script.kind === 'extract') return extractAction(script, prompt);
  if (script.kind === 'collect') return collectAction(script, prompt);
  return nextAction(script.intents, task.goal, prompt);
}

/** The page shows the text that means the goal is met (the goal line itself left out). */
function showsDone(task: BenchTask, prompt: string): boolean {
  const script = task.script;
  if (script.kind !== 'steps' || !script.done) return false;
  return script.done.test(prompt.split('\n').slice(1).join('\n'));
}

/** What the outcome of an action on a link is: a new URL. */
function predictOutcome(prompt: string): unknown {
  const id = /^Action: \w+\("([^"]+)"/m.exec(prompt)?.[1];
  const target = elementsIn(prompt).find((e) => e.id === id);
  return {
    description: target ? `"${target.name}" responds` : 'The page responds to the action',
    urlShouldChange: target?.role === 'link',
    nextGoal: null,
  };
}

export function answer(node: string, prompt: string): unknown {
  // The extraction sub-agent's calls name no goal: answered from the content in the prompt.
  if (node === 'extraction') return answerFromPrompt(prompt);
  const goal = goalOf(prompt);
  const task = taskByGoal(goal);
  switch (node) {
    case 'context_analysis':
      return PAGE_IS_ENOUGH;
    case 'planning':
      return { goal, steps: task ? planFor(task) : [{ description: 'Finish', refinable: false }] };
    case 'replanning': {
      const done = sectionAfter(prompt, 'Steps done so far:');
      const doneSteps = done === '(none)' ? 0 : done.split('\n').filter(Boolean).length;
      return {
        goal,
        steps: task ? planFor(task, doneSteps) : [{ description: 'Finish', refinable: false }],
      };
    }
    case 'action_generation':
      return task
        ? actionFor(task, prompt)
        : {
            thought: 'Unknown goal.',
            action: `fail("The bench has no task for this goal")`,
            chain: null,
            confidence: 0.9,
          };
    case 'direct_action':
      return task && task.script.kind === 'steps'
        ? directAction(task.script.intents, prompt)
        : { thought: 'Unknown command.', action: 'fail("The bench has no task for this command")' };
    case 'critic':
      return APPROVE;
    case 'outcome_prediction':
      return predictOutcome(prompt);
    case 'verification': {
      const done = task ? showsDone(task, prompt) : false;
      return {
        action_succeeded: true,
        task_completed: done,
        confidence: 0.9,
        reason: done ? 'The page shows the goal is met.' : 'The action took effect.',
      };
    }
    case 'correction':
      return RETRY_WITH_DELAY;
    case 'finalize': {
      const shown = sectionAfter(prompt, 'What the page shows now:').split('\n')[1];
      return { answer: shown ? `Done: ${goal}. The page says: ${shown}` : `Done: ${goal}.` };
    }
    default:
      return {};
  }
}

export interface ScriptedModel extends GeminiWire {
  /** Calls answered per graph node (a cross-check; the bench reports the server's counts). */
  calls: Map<string, number>;
}

/**
 * This model behind the Gemini wire: the real server's SDK calls it through GEMINI_BASE_URL, so
 * every figure the bench prints comes from the server's own records of real HTTP calls.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const calls = new Map<string, number>();
  const wire = await startGeminiWire(
    answeringWith(({ system, prompt }) => {
      const node = nodeOfSystem(system);
      calls.set(node, (calls.get(node) ?? 0) + 1);
      return answer(node, prompt);
    }),
  );
  return { ...wire, calls };
}
