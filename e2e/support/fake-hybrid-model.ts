// The fake model's hybrid scenario ("click the red Order button" on the canvas kiosk): the page
// lists no element, so the server must send a screenshot. Like a multimodal model, this one
// clicks only when an image part arrived, at the red button it would see there: the kiosk's
// layout is fixed (CANVAS_KIOSK), and hybrid.spec.ts checks that the screenshot it was sent
// really is red at that point. Without an image it gives up, as a model could only guess.
import { CANVAS_KIOSK, centreOf } from '@tandem/demo-sites';
import {
  act,
  sectionAfter,
  verdict,
  type ModelCall,
  type Scenario,
} from '@tandem/agent/testing/model-double';

export const CANVAS_GOAL = 'click the red Order button';

function action({ prompt, images }: ModelCall): unknown {
  if (sectionAfter(prompt, 'Previous actions:').includes('clickAt('))
    return act('The order was placed.', 'finish("Order placed")');
  if (images.length === 0)
    return act(
      'The Order button is drawn on a canvas and I was sent no screenshot.',
      'fail("I cannot see the Order button: no screenshot of the page")',
    );
  const { x, y } = centreOf(CANVAS_KIOSK.order);
  return act(
    `The screenshot shows the red Order button on the canvas, centred at (${x}, ${y}).`,
    `clickAt(${x}, ${y})`,
  );
}

export const CANVAS: Scenario = {
  applies: ({ goal }) => goal.toLowerCase().includes(CANVAS_GOAL.toLowerCase()),
  answers: {
    action_generation: action,
    verification: ({ prompt }) => {
      const done = prompt.includes('Order placed');
      const reason = done ? 'The kiosk says the order was placed.' : 'The page changed.';
      return verdict(done, reason, done ? 0.95 : 0.7);
    },
    finalize: { answer: `Ordered with the red Order button: “${CANVAS_KIOSK.ordered}”.` },
  },
};
