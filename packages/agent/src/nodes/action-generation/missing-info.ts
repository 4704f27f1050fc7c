// The dynamic interrupt (docs/specs.md, "dynamic interrupt"): the model reports MISSING_INFO
// instead of inventing a value. A public fact is searched for (the googleSearch path, when web
// search is configured); what only the user knows — or a fact no search can find here — is asked
// through the conversation path, and the answer resumes action generation with it in the prompt.
import type { AgentDeps } from '../../deps';
import { askUser, MAX_QUESTIONS } from '../outcomes';
import type { ActionGenerationOutput } from './prompt';

export type MissingInfo = NonNullable<ActionGenerationOutput['missingInfo']>;

export type MissingInfoRoute =
  | { kind: 'search'; query: string }
  | { kind: 'ask'; update: ReturnType<typeof askUser> }
  | { kind: 'refuse'; reason: string };

export function routeMissingInfo(
  deps: AgentDeps,
  state: Parameters<typeof askUser>[0] & { webSearchSummary: string | null },
  items: MissingInfo,
  thought: string,
): MissingInfoRoute {
  const privateData = items.filter((item) => item.kind === 'PRIVATE_DATA');
  const external = items.find((item) => item.kind === 'EXTERNAL_KNOWLEDGE');
  // One search per gap: when the results are already in the prompt, the user is asked.
  if (privateData.length === 0 && external && deps.webSearch.enabled && !state.webSearchSummary) {
    return { kind: 'search', query: external.searchQuery || external.what };
  }
  if (state.questionsAsked >= MAX_QUESTIONS) {
    return {
      kind: 'refuse',
      reason: `${items.map((i) => i.what).join(', ')} cannot be asked for again; never invent it — act without it if the form allows, or fail("…") saying what is missing`,
    };
  }
  const whats = items.map((item) => item.what);
  return {
    kind: 'ask',
    update: askUser(state, 'action_generation', {
      message: `I need the following information to continue: ${whats.join(', ')}.`,
      missingInformation: whats,
      thought,
    }),
  };
}
