// The soak's scripted model: the Gemini REST API on loopback, in a process of its own (forked by
// run.ts) so answering it never competes with the load generator's clock. The server's real
// @google/genai SDK calls it through GEMINI_BASE_URL. It answers every node of a COMPLEX
// paging task the way a competent model would, reading element ids from the prompt; token
// counts are characters / 4, priced by the server as Gemini's.
import {
  APPROVE,
  elementsIn,
  goalOf,
  named,
  nodeOfSystem,
  PAGE_IS_ENOUGH,
  RETRY_WITH_DELAY,
} from '@tandem/agent/testing/model-double';
import { answeringWith, startGeminiWire } from '@tandem/llm/testing';

const PLAN_STEPS = 10;

export function answer(node: string, prompt: string): unknown {
  const goal = goalOf(prompt) || 'page through the list';
  switch (node) {
    case 'context_analysis':
      return PAGE_IS_ENOUGH;
    case 'planning':
    case 'replanning':
      return {
        goal,
        steps: Array.from({ length: PLAN_STEPS }, () => ({
          description: "Click 'Next'",
          refinable: true,
        })),
      };
    case 'outcome_prediction':
      return { description: 'The next page of the list', urlShouldChange: true, nextGoal: null };
    case 'verification':
      return {
        action_succeeded: true,
        task_completed: false,
        confidence: 0.9,
        reason: 'The next page is shown.',
      };
    case 'critic':
      return APPROVE;
    case 'finalize':
      return { answer: `Done: ${goal}.` };
    case 'correction':
      return RETRY_WITH_DELAY;
    default: {
      const next = named(elementsIn(prompt), 'Next')[0]?.id;
      return {
        thought: 'Go to the next page.',
        action: next ? `click("${next}")` : 'scroll("down")',
        chain: null,
        confidence: 0.9,
      };
    }
  }
}

export interface ModelCalls {
  [node: string]: number;
}

export async function startModel(): Promise<{ url: string; calls: ModelCalls }> {
  const calls: ModelCalls = {};
  const wire = await startGeminiWire(
    answeringWith(({ system, prompt }) => {
      const node = nodeOfSystem(system);
      calls[node] = (calls[node] ?? 0) + 1;
      return answer(node, prompt);
    }),
  );
  return { url: wire.url, calls };
}

// Forked by run.ts: report the URL, answer `calls` with the counts, stop on disconnect.
if (process.send) {
  const model = await startModel();
  process.send({ url: model.url });
  process.on('message', (message) => {
    if (message === 'calls') process.send?.({ calls: model.calls });
  });
  process.on('disconnect', () => process.exit(0));
}
