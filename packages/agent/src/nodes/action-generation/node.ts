// The LLM action step (docs/specs.md, "step refinement or LLM action"): thought + action (or a safe
// chain), validated against the grammar and the current tree. The features around it are parts
// (part.ts, listed in parts.ts): a capture asked before the model (capture), rules, sections and
// images for the prompt (collect, extraction, skills, web search, capture), and what the answer
// leads to besides an action (collected items, a reported gap, an extraction, a page read, a
// server-side search). This node gathers them, asks the model, hands the answer to them, checks
// the action and routes.
import type { ChainAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { checkChainSafety } from '../../engines/chain-safety';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { validateAction } from '../action-check';
import { afterAction, policyOf, taskRules } from '../action-policy';
import { renderHistory, verificationLine } from '../history';
import { llmContext, logFor, withUsage } from '../node-context';
import { refusal } from '../outcomes';
import {
  pendingUpdate,
  type ActionPart,
  type ActionTurn,
  type Decision,
  type PreparedPart,
  type PromptSections,
} from './part';
import { ACTION_PARTS } from './parts';
import {
  ActionGenerationOutput,
  actionGenerationPrompt,
  actionGenerationSystemFor,
} from './prompt';

/** Answers the model gets to name a valid action; a rejected one is explained to it. */
export const ACTION_GENERATION_ATTEMPTS = 2;

/** The plan's steps as made: the same text on every call of the task (a cacheable prefix). */
export function renderPlan(state: Pick<InteractStateType, 'plan'>): string {
  if (!state.plan) return '(no plan)';
  return state.plan.steps.map((s) => `${s.index + 1}. ${s.description}`).join('\n');
}

/** Where the task is in its plan, said after the history (it changes every step). */
export function planProgress(state: Pick<InteractStateType, 'plan' | 'currentStepIndex'>): string {
  const steps = state.plan?.steps;
  if (!steps) return '';
  const now = steps[state.currentStepIndex];
  const done = steps.filter((s) => s.status === 'completed').map((s) => s.index + 1);
  return [
    now ? `now at step ${now.index + 1} (${now.description})` : 'past the last step',
    done.length > 0 ? `steps ${done.join(', ')} done` : 'no step done yet',
  ].join('; ');
}

interface Rejection {
  action: string;
  reason: string;
  safety: boolean;
}

/**
 * What the user reads when the model's answers ran out. A step the task's own rules refused
 * (its sites, a secret's sites, data from another site, a step the user rejected) says so: a
 * page may be steering the agent. Anything else is the model failing the grammar or the page.
 */
function endMessage(last: Rejection | null): string {
  if (!last) return 'The model kept producing invalid actions.';
  if (last.safety)
    return (
      `Stopped for safety: the agent kept proposing ${last.action}, which this task may not do ` +
      `(${last.reason}). If the page asked for it, it may be trying to misuse the agent.`
    );
  return `The model kept producing invalid actions: ${last.action} was rejected: ${last.reason}.`;
}

export const actionGeneration =
  (deps: AgentDeps, parts: readonly ActionPart[] = ACTION_PARTS) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('action_generation needs the page state');
    for (const part of parts) {
      const early = part.before?.(deps, state, page);
      if (early) return early;
    }
    const prepared: PreparedPart[] = [];
    for (const part of parts) prepared.push((await part.prepare?.(deps, state, page)) ?? {});
    const system = actionGenerationSystemFor(prepared.flatMap((p) => (p.system ? [p.system] : [])));
    const images = prepared.flatMap((p) => p.images ?? []);
    let tokens = state.tokens;
    /** What earlier answers of this run carried on (collect's counts). */
    let carry: InteractStateUpdate = {};
    // The critic's reason for rejecting the last proposal (same request), read once.
    let feedback = state.criticFeedback ?? '';
    let lastRejection: Rejection | null = null;
    for (let attempt = 0; attempt < ACTION_GENERATION_ATTEMPTS; attempt++) {
      const now = { ...state, ...carry } as InteractStateType;
      const sections: PromptSections = Object.assign(
        {},
        ...prepared.map((p) => p.sections?.(now) ?? {}),
      );
      const result = await deps.llm.generate({
        node: 'action_generation',
        // Its answer states the action's expected outcome too: outcome prediction's part.
        alsoFor: [
          { node: 'outcome_prediction', actionType: 'OUTCOME_PREDICTION', field: 'outcome' },
        ],
        actionType:
          prepared.find((p) => p.actionType)?.actionType ??
          (state.plan?.steps[state.currentStepIndex]?.refinable
            ? 'REFINEMENT'
            : 'ACTION_GENERATION'),
        system,
        prompt: promptFor(now, page, feedback, sections),
        schema: ActionGenerationOutput,
        schemaName: 'next_action',
        ...(images.length > 0 ? { images } : {}),
        context: llmContext(state),
      });
      tokens = withUsage({ tokens }, result);
      const out = result.output;
      const answered = await decide(deps, parts, {
        state: now,
        page,
        tokens,
        out,
        carry,
        notes: [],
      });
      carry = answered.turn.carry;
      const { decision } = answered;
      if (!('rejected' in decision)) {
        return Object.assign({}, decision, ...prepared.map((p) => p.accepted?.(answered.turn)));
      }
      logFor(deps, state, 'action_generation').warn('model action rejected', {
        action: out.action,
        reason: decision.rejected,
        attempt,
      });
      feedback = `Your previous answer ${out.action} was rejected: ${decision.rejected}. Answer with a valid action on a listed id.`;
      lastRejection = { action: out.action, reason: decision.rejected, safety: !!decision.safety };
    }
    return { tokens, ...carry, ...refusal('INVALID_ACTION', endMessage(lastRejection), true) };
  };

function promptFor(
  state: InteractStateType,
  page: PageState,
  feedback: string,
  sections: PromptSections,
): string {
  return actionGenerationPrompt({
    query: state.query,
    page,
    plan: renderPlan(state),
    progress: planProgress(state),
    history: renderHistory(state),
    verification: verificationLine(state),
    conversation: state.conversation,
    rag: state.ragContext.text,
    feedback,
    rules: taskRules(state),
    ...sections,
  });
}

/**
 * What the answer leads to: the parts read it in order (each may carry fields on and add a
 * note), and the first that decides ends the turn; otherwise the action is checked, carried out
 * by a part that runs it on the server, or sent (with its chain).
 */
async function decide(
  deps: AgentDeps,
  parts: readonly ActionPart[],
  first: ActionTurn,
): Promise<{ decision: Decision; turn: ActionTurn }> {
  let turn = first;
  for (const part of parts) {
    const answer = await part.answer?.(deps, turn);
    if (!answer) continue;
    turn = {
      ...turn,
      carry: { ...turn.carry, ...answer.carry },
      notes: answer.note ? [...turn.notes, answer.note] : turn.notes,
    };
    if (answer.decide) return { decision: await answer.decide(turn), turn };
  }
  const checked = validateAction(turn.out.action, turn.page, policyOf(turn.state));
  if (!checked.ok) return { decision: { rejected: checked.reason, safety: checked.safety }, turn };
  for (const part of parts) {
    const acted = await part.act?.(deps, turn, checked.action);
    if (acted) return { decision: acted, turn };
  }
  const chain = chainOf(deps, turn, checked.actionString);
  return { decision: pendingUpdate(turn, checked.action, chain), turn };
}

/**
 * The answer's chain, when every item is a valid action on this page, it starts with the
 * answer's action and the chain-safety rules (docs/specs.md, "action chaining") allow it; otherwise
 * null (the first action is sent alone).
 */
function chainOf(deps: AgentDeps, turn: ActionTurn, first: string): ChainAction[] | null {
  const { out, page } = turn;
  if (!out.chain || out.chain.length <= 1) return null;
  let limited = out.chain.slice(0, deps.limits.maxChainLength);
  // Each action is judged with what the chain typed before it: a number split across fields.
  let policy = policyOf(turn.state);
  let strings = limited.map((c) => {
    const checked = validateAction(c.action, page, policy);
    if (!checked.ok) return null;
    policy = afterAction(policy, checked.action);
    return checked.actionString;
  });
  let verdict = checkChainSafety(
    strings.map((s) => s ?? ''),
    page.tree,
  );
  const refused = !verdict.safe || strings.some((s) => s === null);
  if (refused && limited.length > 2 && /^\s*click\(/.test(limited.at(-1)?.action ?? '')) {
    // A button that may not end this chain goes alone later; the fields still go together.
    const fieldsOnly = checkChainSafety(
      strings.slice(0, -1).map((s) => s ?? ''),
      page.tree,
    );
    if (fieldsOnly.safe) {
      limited = limited.slice(0, -1);
      strings = strings.slice(0, -1);
      verdict = fieldsOnly;
    }
  }
  if (strings.some((s) => s === null) || strings[0] !== first || !verdict.safe) {
    logFor(deps, turn.state, 'action_generation').info(
      'chain refused; sending the first action alone',
      {
        reason: verdict.safe ? 'chain does not start with action' : verdict.reason,
      },
    );
    return null;
  }
  return limited.map((c, index) => ({
    action: strings[index] ?? c.action,
    description: c.description,
    index,
    ...(c.canFail ? { canFail: true } : {}),
  }));
}
