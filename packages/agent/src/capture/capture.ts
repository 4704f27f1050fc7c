// Pages without a tree (docs/specs.md, "Mode Priority" and "Hybrid Vision +
// Skeleton Mode"): before the model decides, action generation may ask the client for more of
// the page than the V3 tree. The mode router picks the capture: a screenshot (needs_screenshot,
// hybrid) for visual goals and canvas pages when the model reads images, the whole DOM
// (needs_full_dom) when the tree is poor otherwise. At most one ask per step (the step is
// stepCount, which grows with every action sent), so a page that stays poor never loops: the
// model then decides on what it has.
import type { AgentDeps } from '../deps';
import { routeMode, type ModeDecision } from '../engines/mode-router';
import { resolveIntent } from '../engines/target-resolver';
import type { LlmImage } from '@tandem/llm';
import type { PageState } from '../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { intentOf } from '../nodes/direct-action/node';
import { logFor } from '../nodes/node-context';
import { makePending } from '../nodes/pending-action';
import { readPage } from '../nodes/outcomes';

export type CaptureRequest = 'full' | 'hybrid';

/** The mode router's decision for this goal and page, for the model that generates actions. */
export function modeFor(deps: AgentDeps, state: InteractStateType, page: PageState): ModeDecision {
  return routeMode({
    goal: state.query,
    page,
    readsImages: deps.llm.acceptsImages('action_generation'),
  });
}

/** The capture to ask for now; null when it is here already, was asked this step, or not needed. */
export function captureToAsk(
  state: Pick<InteractStateType, 'captureAskedAtStep' | 'stepCount'>,
  page: PageState,
  decision: ModeDecision,
): CaptureRequest | null {
  if (decision.mode === 'tree' || state.captureAskedAtStep === state.stepCount) return null;
  if (decision.mode === 'hybrid' && page.screenshot) return null;
  if (decision.mode === 'full' && page.html) return null;
  return decision.mode;
}

/** Asks the client for the capture: it resends the page that way and executes nothing. */
export function askCapture(
  deps: AgentDeps,
  state: InteractStateType,
  mode: CaptureRequest,
  reason: string,
): InteractStateUpdate {
  logFor(deps, state, 'action_generation').info('asking for a richer capture', { mode, reason });
  const thought =
    mode === 'hybrid'
      ? `I need to see the page: ${reason}.`
      : `The element list is not enough to act on (${reason}); reading the whole page.`;
  return { captureRequest: mode, captureAskedAtStep: state.stepCount, ...readPage(thought) };
}

/**
 * What action generation does before asking the model, if anything: fail a command it cannot
 * read the page for without a model, or ask for the capture the mode router picked.
 */
export function captureStep(
  deps: AgentDeps,
  state: InteractStateType,
  page: PageState,
): InteractStateUpdate | null {
  const decision = modeFor(deps, state, page);
  if (!deps.llm.configured) return withoutModel(state, page, decision);
  const ask = captureToAsk(state, page, decision);
  return ask ? askCapture(deps, state, ask, decision.reason) : null;
}

/** The screenshot as an image part, when the page has one and the model reads images. */
export function imagesFor(deps: AgentDeps, page: PageState): LlmImage[] | undefined {
  if (!page.screenshot || !deps.llm.acceptsImages('action_generation')) return undefined;
  return [{ mimeType: page.screenshot.mimeType, data: page.screenshot.data }];
}

/**
 * No model: a SIMPLE command this tree cannot resolve (routes.ts sent it here), or one whose
 * deterministic step did not finish it, fails with the reason and how to configure a model,
 * as direct_action does without one.
 */
export function withoutModel(
  state: InteractStateType,
  page: PageState,
  decision: ModeDecision,
): InteractStateUpdate {
  const why =
    decision.mode === 'tree' ? 'for its next step' : `to read this page (${decision.reason})`;
  const reason = `"${state.query}" needs a language model ${why}; configure GEMINI_API_KEY or LLM_BASE_URL`;
  const pending = makePending({
    state,
    page,
    thought: `I could not do "${state.query}": ${reason}.`,
    action: { name: 'fail', args: { reason } },
    source: 'action_generation',
  });
  return { pending };
}

/**
 * Whether action generation, rather than direct_action, takes a SIMPLE command: when the tree
 * cannot resolve its target and the page needs more than the tree (a visual goal, a poor tree),
 * which only action generation can ask for. A command the tree resolves stays zero-token.
 */
export function takesOverSimpleCommand(
  state: Pick<InteractStateType, 'query' | 'answer' | 'page'>,
): boolean {
  const page = state.page;
  if (!page) return false;
  const intent = intentOf(state);
  if (intent && resolveIntent(intent, page.tree).kind === 'resolved') return false;
  // Whether the model reads images is the node's to say; either way the tree is not enough.
  return routeMode({ goal: state.query, page, readsImages: true }).mode !== 'tree';
}
