// The soak's scripted model: the Gemini REST API on loopback, in a process of its own (forked by
// run.ts through ../model-process.ts) so answering it never competes with the load generator's
// clock. The server's real @google/genai SDK calls it through GEMINI_BASE_URL. It answers every
// node of a COMPLEX paging task the way a competent model would, reading element ids from the
// prompt; token counts are characters / 4, priced by the server as Gemini's.
import {
  act,
  answerOf,
  elementsIn,
  named,
  plan,
  startModelDouble,
  USUAL_ANSWERS,
  verdict,
  type ModelCall,
} from '@tandem/agent/testing/model-double';
import { forkedAsModel, serveModel } from '../model-process';

const PLAN_STEPS = 10;

export function answer(call: ModelCall): unknown {
  const goal = call.goal || 'page through the list';
  return (
    answerOf(
      {
        ...USUAL_ANSWERS,
        planning: plan(goal, Array<string>(PLAN_STEPS).fill("Click 'Next'"), true),
        outcome_prediction: {
          description: 'The next page of the list',
          urlShouldChange: true,
          nextGoal: null,
        },
        verification: verdict(false, 'The next page is shown.', 0.9),
        finalize: { answer: `Done: ${goal}.` },
      },
      call,
    ) ?? nextPage(call)
  );
}

/** Every other node's answer (action generation's): the next page. */
function nextPage({ prompt }: ModelCall): unknown {
  const next = named(elementsIn(prompt), 'Next')[0]?.id;
  return act('Go to the next page.', next ? `click("${next}")` : 'scroll("down")');
}

// Forked by run.ts: it asks for the calls answered, by node.
if (forkedAsModel(import.meta.filename)) {
  const model = await startModelDouble(answer);
  serveModel(model, () => ({ calls: model.calls }));
}
