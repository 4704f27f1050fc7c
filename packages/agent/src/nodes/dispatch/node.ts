// Pauses the graph (LangGraph interrupt) with the response for the client. The next request
// for the task resumes here with the new page state; everything before the interrupt must be
// side-effect free because LangGraph re-runs this node on resume.
import { interrupt } from '@langchain/langgraph';
import type { InteractResponse } from '@tandem/contracts';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';

/** What the service passes when resuming a task. */
export interface ResumeInput {
  page: PageState;
  ragContext: InteractStateType['ragContext'];
}

export const dispatch =
  () =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const resume = interrupt<InteractResponse | null, ResumeInput>(state.output.response);
    return {
      page: resume.page,
      ragContext: resume.ragContext,
      requestCount: state.requestCount + 1,
      // The client answered a needs_snapshot: it executed nothing, so there is nothing to verify.
      resumedFromPageRead: state.pageRequest !== null,
      pageRequest: null,
      output: { response: null, error: null, persistTask: false },
    };
  };
