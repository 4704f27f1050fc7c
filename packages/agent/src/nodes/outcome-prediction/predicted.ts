// The outcome an action should have, as the model states it: with the action itself (one call
// per step, action generation's `outcome` field) or, for an action that came without one, in
// outcome prediction's own call. One schema for both, so verification reads the same fields.
import type { ExpectedOutcome } from '@tandem/contracts';
import { z } from 'zod';

export const PredictedOutcome = z.object({
  description: z.string().describe('What the page should show after the action.'),
  urlShouldChange: z.boolean(),
  textShouldAppear: z
    .string()
    .nullish()
    .describe('A short text the page should then show (a confirmation, the new record), or null.'),
  completesGoal: z
    .boolean()
    .nullish()
    .describe('True when this action, once it works, achieves the whole user goal.'),
  answer: z
    .string()
    .nullish()
    .describe(
      'Only when completesGoal: the answer for the user in one to three plain sentences (what was done), else null.',
    ),
  nextGoal: z
    .object({
      description: z.string(),
      textContent: z.string().nullable(),
      role: z.string().nullish().describe('Role code of that element in the tree (btn, tf…).'),
      required: z.boolean(),
    })
    .nullish()
    .describe('What must be visible for the next plan step (look-ahead), or null.'),
});
export type PredictedOutcome = z.infer<typeof PredictedOutcome>;

/** The action answer's field: optional, so an answer without it still counts (a call then predicts). */
export const OutcomeField = PredictedOutcome.nullish().describe(
  'The outcome this action should have, checked after it runs; null for finish() and fail().',
);

/** The prediction as the pending action carries it. */
export function expectedOf(o: PredictedOutcome): ExpectedOutcome {
  const next = o.nextGoal;
  return {
    description: o.description,
    urlShouldChange: o.urlShouldChange,
    ...(next
      ? {
          nextGoal: {
            description: next.description,
            ...(next.textContent ? { textContent: next.textContent } : {}),
            ...(next.role ? { role: next.role } : {}),
            required: next.required,
          },
        }
      : {}),
    ...(o.textShouldAppear ? { textShouldAppear: o.textShouldAppear } : {}),
    // Said either way: false lets verification skip judging the goal at a last plan step.
    ...(typeof o.completesGoal === 'boolean' ? { completesGoal: o.completesGoal } : {}),
    ...(o.completesGoal && o.answer ? { answer: o.answer } : {}),
    source: 'llm',
  };
}

/**
 * A fixed template's description and URL expectation (deterministic, what tier 1 checks), with
 * what only the model can say: whether the goal is then done, its answer, the look-ahead.
 */
export function mergeExpected(
  template: ExpectedOutcome | null,
  predicted: ExpectedOutcome | null,
): ExpectedOutcome | null {
  if (!template || !predicted) return template ?? predicted;
  const { description: _d, urlShouldChange: _u, source: _s, ...modelOnly } = predicted;
  return { ...template, ...modelOnly };
}
