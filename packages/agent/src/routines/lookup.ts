// Context analysis's first question for a new task: is this goal one a saved routine does, on
// this site and from this page? Decided without a model wherever the text can decide it
// (match.ts); only a goal that reads as the template in several ways (which words are the
// first name?) costs one small classification call. The routine the popup named comes first,
// but it too must match the goal: a hint never makes the agent type what the goal did not say.
import { hostOf, type Routine } from '@tandem/contracts';
import { z } from 'zod';
import type { AgentDeps } from '../deps';
import { llmContext, logFor, withUsage } from '../nodes/node-context';
import { fenceUntrusted, type PageState } from '../page/page-state';
import type { InteractStateType } from '../state';
import { findRoutineForGoal, matchGoal, type RoutineMatch, type RoutineValues } from './match';
import { likeUrl } from './replay';

export type RoutineChoice =
  | { routine: Routine; values: RoutineValues; tokens: InteractStateType['tokens'] }
  | { declined: string; tokens: InteractStateType['tokens'] }
  | null;

const ReadingOutput = z.object({
  /** The number of the reading the user meant, or null when none fits. */
  reading: z.number().int().min(1).nullable(),
  reasoning: z.string(),
});

export const readingSystem = [
  'A user goal matches a saved routine template in more than one way.',
  'Pick the reading whose values are what the user meant (names stay whole, a value is one thing).',
  'Answer null when no reading fits.',
].join('\n');

/** The goal with its markers (checkpoints from before they were kept have only the query). */
export const typedGoal = (state: Pick<InteractStateType, 'goalAsTyped' | 'query'>): string =>
  state.goalAsTyped || state.query;

const sameValues = (a: RoutineValues, b: RoutineValues) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([k, v]) => b[k] === v);

/** One reading of an ambiguous goal, chosen by the model (a ROUTINE_RERUN call). */
async function chooseReading(
  deps: AgentDeps,
  state: InteractStateType,
  routine: Routine,
  candidates: RoutineValues[],
): Promise<{ values: RoutineValues | null; tokens: InteractStateType['tokens'] }> {
  if (!deps.llm.configured) return { values: null, tokens: state.tokens };
  const readings = candidates
    .map(
      (c, i) =>
        `${i + 1}. ${Object.entries(c)
          .map(([k, v]) => `${k} = “${v}”`)
          .join(', ')}`,
    )
    .join('\n');
  const result = await deps.llm.generate({
    node: 'context_analysis',
    actionType: 'ROUTINE_RERUN',
    system: readingSystem,
    prompt: [
      `User goal: ${state.query}`,
      `Routine template: ${fenceUntrusted(routine.goalTemplate)}`,
      `Readings:\n${readings}`,
    ].join('\n\n'),
    schema: ReadingOutput,
    schemaName: 'routine_reading',
    context: llmContext(state),
  });
  const picked = result.output.reading;
  const values = picked !== null ? (candidates[picked - 1] ?? null) : null;
  return { values, tokens: withUsage(state, result) };
}

/** The routine the popup named, when it is the tenant's, enabled, of this site and the goal's. */
async function requested(
  deps: AgentDeps,
  state: InteractStateType,
  site: string,
): Promise<{ routine: Routine; match: Exclude<RoutineMatch, { match: false }> } | string> {
  const routines = deps.routines;
  const ask = state.routineRequest;
  if (!routines || !ask) return 'no routine asked for';
  const named = await routines.get(state.tenantId, ask.routineId);
  if (!named || named.site !== site) return 'the routine asked for is not one of this site';
  // The highest enabled version of it runs (the popup may show an older one).
  const routine = await routines.findLatest(state.tenantId, named);
  if (!routine) return 'the routine asked for is disabled';
  const match = matchGoal(typedGoal(state), routine);
  if (match.match === false) return `the goal does not read as the routine: ${match.reason}`;
  const wanted = ask.values;
  if (match.match === true)
    return sameValues(match.values, wanted)
      ? { routine, match }
      : 'the goal says other values than the routine was asked to run with';
  const chosen = match.candidates.find((c) => sameValues(c, wanted));
  return chosen
    ? { routine, match: { match: true, values: chosen } }
    : 'the goal says other values than the routine was asked to run with';
}

/**
 * The routine this new task reruns and its values; `declined` with the reason when one matched
 * the text but may not run here; null when none matches.
 */
export async function routineForGoal(
  deps: AgentDeps,
  state: InteractStateType,
  page: PageState,
): Promise<RoutineChoice> {
  const tokens = state.tokens;
  const routines = deps.routines;
  const site = hostOf(page.url);
  // Only at a task's start: a task under way never turns into a routine half-way.
  if (!routines || !site || state.routineRun || state.previousActions.length > 0) return null;
  const log = logFor(deps, state, 'context_analysis');
  let found: { routine: Routine; match: Exclude<RoutineMatch, { match: false }> } | null = null;
  if (state.routineRequest) {
    const asked = await requested(deps, state, site);
    if (typeof asked === 'string') log.info('routine asked for does not run', { reason: asked });
    else found = asked;
  }
  // The same form elsewhere on the site may do something else: the start page must be the one.
  // Checked first: a routine that cannot run here is not worth a classification call.
  const startsHere = (r: Routine) => {
    const start = r.steps[0]?.page?.url;
    return !start || likeUrl(page.url, start);
  };
  if (found && !startsHere(found.routine)) {
    log.info('routine asked for does not run', {
      reason: `it starts on a page like ${found.routine.steps[0]?.page?.url ?? ''}, and the tab is on ${page.url}`,
    });
    found = null;
  }
  found ??= await findRoutineForGoal(routines, state.tenantId, site, typedGoal(state), startsHere);
  if (!found) return null;
  const { routine, match } = found;
  let values: RoutineValues | null = match.match === true ? match.values : null;
  let spent = tokens;
  if (match.match === 'ambiguous') {
    try {
      const chosen = await chooseReading(deps, state, routine, match.candidates);
      values = chosen.values;
      spent = chosen.tokens;
    } catch (error) {
      // A routine is a shortcut: the call that reads the goal failing must not fail the task.
      log.warn('routine reading call failed; the agent runs without the routine', { error });
      return { declined: 'the call that reads the goal as the routine failed', tokens: spent };
    }
    if (!values)
      return {
        declined: 'the goal reads as the routine in several ways, none chosen',
        tokens: spent,
      };
  }
  return { routine, values: values as RoutineValues, tokens: spent };
}
