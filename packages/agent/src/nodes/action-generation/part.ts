// What a feature brings to action generation. The node gathers the parts' rules, prompt sections
// and images, asks the model, hands the answer to the parts in list order (parts.ts), checks
// the action and routes. Each feature keeps its own part beside its code (collect, extraction,
// capture, page reads, missing information, skills, web search, critic), so adding one is a new
// part and one line in the list, not another branch in the node.
import type { ChainAction, LlmActionType, ParsedAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { LlmImage } from '@tandem/llm';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { makePending } from '../pending-action';
import { expectedOf } from '../outcome-prediction/predicted';
import type { ActionGenerationOutput } from './prompt';

/** The prompt's sections a part may fill (the prompt builder places them). */
export interface PromptSections {
  /** "Collected so far …" (counts only, never items). */
  collected?: string;
  /** Extraction summaries and the strategies known for this page (ids and counts, no data). */
  extractions?: string;
  /** Lessons from earlier corrections on this site. */
  skills?: string;
  /** Web search results (fenced as untrusted by the builder). */
  web?: string | null;
  /** The saved routine's step the model is asked to heal (its intent, values and reason). */
  routine?: string;
}

/** What a part adds to this run's model calls, read once before the first. */
export interface PreparedPart {
  /** Rules added to the system prompt (other tasks do not pay for them). */
  system?: string;
  images?: LlmImage[];
  /** Its sections for an attempt: `state` carries what earlier answers of this run did. */
  sections?(state: InteractStateType): PromptSections;
  /** Added to the update of the accepted answer. */
  accepted?(turn: ActionTurn): InteractStateUpdate;
  /** The usage records' action type for this run's calls, instead of the node's own. */
  actionType?: LlmActionType;
}

/** One answer of the model, the page it was given, and what the parts before carried on. */
export interface ActionTurn {
  /** The state as this answer saw it (with what earlier answers of the run carried). */
  state: InteractStateType;
  page: PageState;
  tokens: InteractStateType['tokens'];
  out: ActionGenerationOutput;
  /** Fields every update of this answer includes (collect's counts). */
  carry: InteractStateUpdate;
  /** Lines added to the thought (what collect stored or skipped: keys and counts, never data). */
  notes: string[];
}

/** How the turn ends: an update, or a rejection the model is told before it answers again. */
export type Decision = InteractStateUpdate | { rejected: string; safety?: true | undefined };

/**
 * What a part made of the answer: fields carried on and a note (added to the turn first), and
 * maybe the turn's decision, made on the turn with them.
 */
export interface PartAnswer {
  carry?: InteractStateUpdate;
  note?: string;
  decide?(turn: ActionTurn): Decision | Promise<Decision>;
}

export interface ActionPart {
  readonly name: string;
  /** Before the model: an update that ends this run without asking it (a capture to ask for). */
  before?(deps: AgentDeps, state: InteractStateType, page: PageState): InteractStateUpdate | null;
  /** Its rules, images and sections for this run (lookups the prompt needs run here, once). */
  prepare?(
    deps: AgentDeps,
    state: InteractStateType,
    page: PageState,
  ): PreparedPart | Promise<PreparedPart>;
  /** The model's answer, before its action is checked: in list order, the first decision wins. */
  answer?(deps: AgentDeps, turn: ActionTurn): PartAnswer | null | Promise<PartAnswer | null>;
  /** A checked action this part carries out on the server, not the client (googleSearch). */
  act?(
    deps: AgentDeps,
    turn: ActionTurn,
    action: ParsedAction,
  ): InteractStateUpdate | null | Promise<InteractStateUpdate | null>;
}

/** The turn's thought, with the parts' notes. */
export const thoughtOf = (turn: ActionTurn, thought = turn.out.thought): string =>
  [thought, ...turn.notes].join('\n');

/** What every update of the turn carries: its tokens and the parts' carried fields. */
export const turnUpdate = (turn: ActionTurn): InteractStateUpdate => ({
  tokens: turn.tokens,
  ...turn.carry,
});

/** The turn's action (or chain) to send. */
export function pendingUpdate(
  turn: ActionTurn,
  action: ParsedAction,
  chain: ChainAction[] | null = null,
  thought = thoughtOf(turn),
): InteractStateUpdate {
  return {
    ...turnUpdate(turn),
    pending: makePending({
      state: turn.state,
      page: turn.page,
      thought,
      action,
      chain: chain ? { actions: chain } : null,
      source: 'action_generation',
      // The outcome the model stated with the action: outcome prediction need not ask again.
      expectedOutcome: turn.out.outcome ? expectedOf(turn.out.outcome) : null,
    }),
  };
}
