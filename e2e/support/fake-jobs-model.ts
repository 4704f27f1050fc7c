// The fake model's job-board scenario ("Extract 25 job listings"): bench/tasks' scripted model
// on its collection script. It reads the board the way a model would, by asking for a content
// snapshot of the list, then collects every card it read and pages on. The server stores,
// deduplicates and stops at the limit; nothing here counts or deduplicates.
import { collectAction, plan, verdict, type Scenario } from '@tandem/agent/testing/model-double';
import { jobCardsIn } from '@tandem/demo-sites';

export const JOBS: Scenario = {
  applies: ({ goal }) => /job listings/i.test(goal),
  answers: {
    planning: plan('Extract job listings', ['Collect every job card, page by page']),
    action_generation: ({ prompt }) =>
      collectAction({ kind: 'collect', selector: '#job-list', type: 'job' }, prompt, jobCardsIn),
    verification: verdict(false, 'The next page of jobs is shown.', 0.9),
  },
};
