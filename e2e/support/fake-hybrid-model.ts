// The fake model's hybrid scenario ("click the red Order button" on the canvas kiosk): the page
// lists no element, so the server must send a screenshot. Like a multimodal model, this one
// clicks only when an image part arrived, at the red button it would see there: the kiosk's
// layout is fixed (CANVAS_KIOSK), and hybrid.spec.ts checks that the screenshot it was sent
// really is red at that point. Without an image it gives up, as a model could only guess.
import { CANVAS_KIOSK, centreOf } from '@tandem/demo-sites';
import type { InlineImage } from '@tandem/llm/testing';

export const CANVAS_GOAL = 'click the red Order button';

export const isCanvasGoal = (goal: string) =>
  goal.toLowerCase().includes(CANVAS_GOAL.toLowerCase());

/** The "Previous actions" block of an action prompt. */
const previousActions = (prompt: string) =>
  /Previous actions:\n([\s\S]*?)(?:\n\n|$)/.exec(prompt)?.[1] ?? '';

export function answerCanvas(
  node: string,
  prompt: string,
  images: readonly InlineImage[],
): unknown {
  switch (node) {
    case 'action_generation': {
      if (previousActions(prompt).includes('clickAt('))
        return {
          thought: 'The order was placed.',
          action: 'finish("Order placed")',
          chain: null,
          confidence: 0.9,
        };
      if (images.length === 0) {
        return {
          thought: 'The Order button is drawn on a canvas and I was sent no screenshot.',
          action: 'fail("I cannot see the Order button: no screenshot of the page")',
          chain: null,
          confidence: 0.9,
        };
      }
      const { x, y } = centreOf(CANVAS_KIOSK.order);
      return {
        thought: `The screenshot shows the red Order button on the canvas, centred at (${x}, ${y}).`,
        action: `clickAt(${x}, ${y})`,
        chain: null,
        confidence: 0.9,
      };
    }
    case 'verification': {
      const done = prompt.includes('Order placed');
      return {
        action_succeeded: true,
        task_completed: done,
        confidence: done ? 0.95 : 0.7,
        reason: done ? 'The kiosk says the order was placed.' : 'The page changed.',
      };
    }
    case 'finalize':
      return { answer: `Ordered with the red Order button: “${CANVAS_KIOSK.ordered}”.` };
    default:
      return null;
  }
}
