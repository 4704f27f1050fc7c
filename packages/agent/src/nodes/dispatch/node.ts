// Where a run pauses: the graph is compiled with `interruptBefore: ['dispatch']` (a LangGraph
// static interrupt), so a run stops just before this node with the response for the client in
// `output`, and the task's checkpoint waits here. The next request for the task resumes the
// thread with its page as the run's context; this node takes it into the state and routes to
// verification. Why a static interrupt and not `interrupt()` inside the node: a dynamic one
// re-runs the node on resume and writes the interrupt and the resume value as pending writes,
// about 2 ms more per step on these machines (bench/interact), for nothing this graph uses.
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { isBlockedActionError, type ApprovalDecision, type SecretRef } from '@tandem/contracts';
import { replanTrigger } from '../../engines/dom-similarity';
import { withPageData } from '../../engines/site-data';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { actionText, upgradePending } from '../pending-action';
import type { PendingAction } from '../../state';
import { approvalUpdate } from './approval';

/** What the service passes when resuming a task. */
export interface ResumeInput {
  page: PageState;
  ragContext: InteractStateType['ragContext'];
  /** The user's answer, when the task is paused on a question. */
  answer?: string;
  /** The session's conversation, reloaded with an answer (it now holds the answer). */
  conversation?: string;
  /** The user's decision on the previous step's approval card, when it asked for one. */
  approval?: ApprovalDecision;
  /** The secrets the user stores now (names and sites), when the request lists them. */
  secrets?: SecretRef[];
}

/** The run context (LangGraph `context`) of a run that resumes a task. */
// A type, not an interface: LangGraph's context parameter wants an index-signature-compatible type.
export type InteractRunContext = {
  resume?: ResumeInput;
};

export const dispatch =
  () =>
  async (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ): Promise<InteractStateUpdate> => {
    const resume = config?.context?.resume;
    if (!resume) throw new Error('dispatch runs only when a request resumes the task');
    const pending = upgradePending(state.pending);
    // A snapshot (needs_snapshot) or a capture (needs_full_dom, needs_screenshot) answered.
    const readPage = state.pageRequest !== null || state.captureRequest !== null;
    const approval = readPage ? {} : approvalUpdate(state, pending, resume.approval);
    const rejectedActions = Array.isArray(approval.rejectedActions)
      ? approval.rejectedActions
      : state.rejectedActions;
    return {
      ...replanUpdate(state, resume.page, readPage),
      page: resume.page,
      ragContext: resume.ragContext,
      requestCount: state.requestCount + 1,
      // The client answered a page read: it executed nothing, so there is nothing to verify.
      resumedFromPageRead: readPage,
      pageRequest: null,
      ...(state.captureRequest !== null ? { captureRequest: null } : {}),
      outcome: null,
      ...(pending !== state.pending ? { pending } : {}),
      ...answerUpdate(state, resume),
      ...siteDataUpdate(state, resume.page),
      ...(resume.secrets ? { secrets: resume.secrets } : {}),
      ...approval,
      ...(readPage ? {} : blockedUpdate(rejectedActions, pending, resume.page)),
    };
  };

/**
 * A step the browser refused for safety (a navigation outside the task's sites, a secret off
 * its sites): the action that was refused joins the rejected ones, so the policy refuses it
 * from now on instead of sending it to be blocked again. Written only when it changes.
 */
function blockedUpdate(
  rejectedActions: readonly string[],
  pending: PendingAction | null,
  page: PageState,
): InteractStateUpdate {
  if (!pending || !isBlockedActionError(page.lastActionError)) return {};
  // A chain reports the action it stopped at as the one after the last it executed.
  const refused = pending.chain
    ? pending.chain.actions[(page.lastExecutedActionIndex ?? -1) + 1]?.action
    : actionText(pending);
  if (!refused || rejectedActions.includes(refused)) return {};
  return { rejectedActions: [...rejectedActions, refused] };
}

/** This page's data fingerprints, written only when it showed something new. */
function siteDataUpdate(state: InteractStateType, page: PageState): InteractStateUpdate {
  const before = state.siteData ?? {};
  const after = withPageData(before, page);
  return after !== before ? { siteData: { ...after } } : {};
}

/**
 * A task paused on a question resumes at the node that asked, with the answer and the
 * conversation that now holds it. Written only when it changes, so an ordinary step writes
 * no extra channel into its checkpoint.
 */
function answerUpdate(state: InteractStateType, resume: ResumeInput): InteractStateUpdate {
  if (state.question) {
    return {
      question: null,
      answer: resume.answer ?? null,
      resumeAt: state.question.askedBy,
      ...(resume.conversation !== undefined ? { conversation: resume.conversation } : {}),
    };
  }
  return state.resumeAt !== null ? { resumeAt: null } : {};
}

/**
 * Whether the page under the plan changed enough to check the plan again (docs/specs.md,
 * "dynamic re-planning"): the URL path changed or the DOM similarity fell below 70%. Only for
 * planned tasks, and never after a page read (the client executed nothing). Written only when it
 * changes, so an ordinary step writes no extra channels into its checkpoint.
 */
function replanUpdate(
  state: InteractStateType,
  page: PageState,
  readPage: boolean,
): InteractStateUpdate {
  const before = state.page;
  const trigger =
    state.plan && before && before.tree.length > 0 && !readPage
      ? replanTrigger({
          previousUrl: before.url,
          url: page.url,
          before: before.tree,
          after: page.tree,
        })
      : null;
  const signal =
    trigger?.replan && trigger.reason
      ? { reason: trigger.reason, similarity: trigger.similarity }
      : null;
  return {
    ...(signal || state.replanSignal ? { replanSignal: signal } : {}),
    ...(state.rePlanning ? { rePlanning: false } : {}),
  };
}
