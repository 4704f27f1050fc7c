// The fake model's job-board scenario ("Extract 25 job listings"): it reads the board the way
// a model would, by asking for a content snapshot of the list, then collects every card it
// read and pages on. The server stores, deduplicates and stops at the limit; nothing here
// counts or deduplicates.
import { elementsIn } from '@tandem/agent/testing/model-double';
import { jobCardsIn } from '@tandem/demo-sites';

export const isJobsGoal = (goal: string) => /job listings/i.test(goal);

export function answerJobs(node: string, prompt: string): unknown {
  switch (node) {
    case 'replanning':
    case 'planning':
      return {
        goal: 'Extract job listings',
        steps: [{ description: 'Collect every job card, page by page', refinable: false }],
      };
    case 'action_generation': {
      const snapshot = /Snapshot \(content\):\n([\s\S]*?)<\/page_content>/.exec(prompt)?.[1];
      if (!snapshot)
        return {
          thought: 'Read the job list first.',
          action: 'wait(1)',
          chain: null,
          confidence: 0.9,
          readPage: { mode: 'content', selector: '#job-list' },
        };
      const cards = jobCardsIn(snapshot);
      const next = elementsIn(prompt).find((e) => /next page/i.test(e.name));
      // The pager sits below the list, out of view until the page is scrolled.
      return {
        thought: next
          ? `Read ${cards.length} cards on this page; on to the next one.`
          : `Read ${cards.length} cards; scroll down to the pager.`,
        action: next ? `click("${next.id}")` : 'scroll("down")',
        chain: null,
        confidence: 0.9,
        collect: cards.map((data) => ({ type: 'job', data })),
      };
    }
    case 'verification':
      return {
        action_succeeded: true,
        task_completed: false,
        confidence: 0.9,
        reason: 'The next page of jobs is shown.',
      };
    default:
      return null;
  }
}
