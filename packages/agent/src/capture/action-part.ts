// Capture in action generation: before the model, ask for the capture the page needs (capture.ts);
// with a screenshot, the model sees it as an image and is offered clickAt.
import type { ActionPart } from '../nodes/action-generation/part';
import { GRAMMAR } from '../nodes/action-generation/prompt';
import { captureStep, imagesFor } from './capture';

/**
 * Hybrid mode (a screenshot is attached): the coordinate click, offered only then because its
 * point must come from an image of this very page.
 */
export const HYBRID_PROMPT_RULES = [
  `Grammar in this step: ${GRAMMAR.replace('click(id), ', 'click(id), clickAt(x, y), ')}.`,
  'A screenshot of the viewport is attached. clickAt(x, y) clicks the point (x, y) of it, in CSS pixels from its top-left corner: use it only for what the element list does not have (a control drawn on a canvas, an unnamed icon), aim at the middle of the thing, and never chain it. Prefer click(id) for anything listed.',
].join('\n');

export const capturePart: ActionPart = {
  name: 'capture',
  before: captureStep,
  prepare(deps, _state, page) {
    const images = imagesFor(deps, page);
    return images ? { images, system: HYBRID_PROMPT_RULES } : {};
  },
};
