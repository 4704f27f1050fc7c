// The capture feature's fields of the interact state (state.ts gathers every feature's).
import { replace } from '../channel';

export const captureState = {
  /**
   * A richer capture asked of the client instead of acting (docs/specs.md, "Mode Priority"): `full`
   * (needs_full_dom) when the tree is empty or too poor, `hybrid` (needs_screenshot) for visual
   * goals and canvas pages; set while waiting for it.
   */
  captureRequest: replace<'full' | 'hybrid' | null>(() => null),
  /** stepCount when a capture was last asked: at most one ask per step, so it never loops. */
  captureAskedAtStep: replace<number | null>(() => null),
};
