// The dynamic interrupt (docs/specs.md, "dynamic interrupt"): the model reports MISSING_INFO
// instead of inventing a value. A public fact is searched for (the googleSearch path, when web
// search is configured); what only the user knows — or a fact no search can find here — is asked
// through the conversation path, and the answer resumes action generation with it in the prompt.
import { z } from 'zod';
import type { AgentDeps } from '../deps';
import { askUser, MAX_QUESTIONS } from '../nodes/outcomes';

/** The `missingInfo` field of the action step's answer. */
export const MissingInfoField = z
  .array(
    z.object({
      what: z.string().describe('The value that is missing, e.g. "middle name".'),
      kind: z
        .enum(['PRIVATE_DATA', 'EXTERNAL_KNOWLEDGE'])
        .describe('PRIVATE_DATA: only the user knows it; EXTERNAL_KNOWLEDGE: a public fact.'),
      searchQuery: z.string().nullable().optional(),
    }),
  )
  .max(5)
  .nullable()
  .optional()
  .describe(
    'Spec 003 MISSING_INFO: a value the next action needs that is in neither the goal, the conversation nor the page. Report it instead of inventing it; the action is then not executed. Null otherwise.',
  );

export type MissingInfo = NonNullable<z.infer<typeof MissingInfoField>>;

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
