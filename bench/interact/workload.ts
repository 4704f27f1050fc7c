// What bench/interact sends and what its scripted model answers: shared by the load generator
// (run.ts) and the server process (server.ts).
import type { ScriptedStep } from '@tandem/llm/testing';
import { pageContextStep } from '@tandem/agent/testing';
import type { SemanticNodeV3 } from '@tandem/contracts';

export interface BenchServerReady {
  url: string;
  apiKey: string;
}

/** A 32-element page: enough for realistic resolution and hashing work, like a small app view. */
export const tree = (n: number): SemanticNodeV3[] => [
  { i: `next-${n}`, r: 'btn', n: 'Next' },
  { i: `logout-${n}`, r: 'link', n: 'Logout' },
  ...Array.from({ length: 30 }, (_, k) => ({ i: `l${n}-${k}`, r: 'link', n: `Item ${k}` })),
];

/** Model answers for `count` COMPLEX tasks: context, a 10-step refinable plan, two predictions. */
export function scriptedSteps(count: number): ScriptedStep[] {
  const out: ScriptedStep[] = [];
  for (let k = 0; k < count; k++) {
    out.push(
      pageContextStep('page'),
      {
        node: 'planning',
        output: {
          goal: 'page through',
          steps: Array.from({ length: 10 }, () => ({
            description: "Click 'Next'",
            refinable: true,
          })),
        },
      },
      {
        node: 'outcome_prediction',
        output: { description: 'next page', urlShouldChange: true, nextGoal: null },
      },
      {
        node: 'outcome_prediction',
        output: { description: 'next page', urlShouldChange: true, nextGoal: null },
      },
    );
  }
  return out;
}
