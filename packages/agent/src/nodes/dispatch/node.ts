// Where a run pauses: the graph is compiled with `interruptBefore: ['dispatch']` (a LangGraph
// static interrupt), so a run stops just before this node with the response for the client in
// `output`, and the task's checkpoint waits here. The next request for the task resumes the
// thread with its page as the run's context; this node takes it into the state and routes to
// verification. Why a static interrupt and not `interrupt()` inside the node: a dynamic one
// re-runs the node on resume and writes the interrupt and the resume value as pending writes,
// about 2 ms more per step on these machines (bench/interact), for nothing this graph uses.
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { upgradePending } from '../pending-action';

/** What the service passes when resuming a task. */
export interface ResumeInput {
  page: PageState;
  ragContext: InteractStateType['ragContext'];
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
    const pending = upgradePending(state.pending);
    if (!resume) throw new Error('dispatch runs only when a request resumes the task');
    return {
      page: resume.page,
      ragContext: resume.ragContext,
      requestCount: state.requestCount + 1,
      // The client answered a needs_snapshot: it executed nothing, so there is nothing to verify.
      resumedFromPageRead: state.pageRequest !== null,
      pageRequest: null,
      outcome: null,
      ...(pending !== state.pending ? { pending } : {}),
    };
  };
