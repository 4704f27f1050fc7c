// Navigation: a menu button that opens a menu, in-app (pushState) routes, plain links, a link
// below a long list, and a job card whose details open beside the list.
import { DEMO_PAGES, JOB_BOARD } from '@tandem/demo-sites';
import { allOf, fail, pass, pathIs, textIn, textIs } from '../checks';
import type { BenchTask, TaskGoal } from '../task';

/** The details of the first page's job of that title are shown beside the list. */
function jobDetails(title: string): TaskGoal {
  const job = JOB_BOARD.pages[0]?.find((j) => j.title === title);
  return {
    goal: `Show the details of the ${title} job`,
    script: { kind: 'steps', intents: [{ kind: 'click', target: title }] },
    check: async (ctx) => {
      const id = await textIn(ctx, '#job-detail:not([hidden]) [data-field="jobId"]');
      return id !== '' && id === job?.id
        ? pass(`details of ${id} shown`)
        : fail(`details show "${id}", expected ${job?.id ?? '?'}`);
    },
  };
}

export const NAVIGATION_TASKS: BenchTask[] = [
  {
    id: 'emr-recent',
    category: 'navigation',
    start: DEMO_PAGES.emr,
    goal: 'Show me the recent patients',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Patients' },
        { kind: 'click', target: 'Recent' },
      ],
    },
    check: allOf(pathIs(DEMO_PAGES.emrRecent), async (ctx) => {
      const count = await ctx.page.locator('#recent-patients li').count();
      return count === 3 ? pass('3 recent patients listed') : fail(`${count} patients listed`);
    }),
  },
  {
    id: 'emr-schedule',
    category: 'navigation',
    start: DEMO_PAGES.emr,
    // A single command: the SIMPLE path (no plan, one direct action).
    goal: 'Open the Schedule',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Schedule' }] },
    check: allOf(pathIs('/emr/schedule'), textIs('main h1', 'Schedule')),
  },
  {
    id: 'index-to-dropdown',
    category: 'navigation',
    start: DEMO_PAGES.index,
    goal: 'Go to the custom dropdown demo',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Custom dropdown' }] },
    check: pathIs(DEMO_PAGES.dropdown),
  },
  {
    id: 'catalog-next-page',
    category: 'navigation',
    start: DEMO_PAGES.catalog,
    goal: 'Show me the next page of the product catalogue',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Next page' }] },
    check: allOf(pathIs(DEMO_PAGES.catalogPage2), textIs('#results-summary', /^Page 2 of 3/)),
  },
  {
    id: 'catalog-price-list',
    category: 'navigation',
    start: DEMO_PAGES.catalog,
    goal: 'Open the Price list',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Price list' }] },
    check: allOf(pathIs(DEMO_PAGES.catalogPrices), async (ctx) => {
      const rows = await ctx.page.locator('#price-table tbody tr').count();
      return rows === 500 ? pass('500 price rows shown') : fail(`${rows} price rows shown`);
    }),
  },
  {
    id: 'jobs-details',
    category: 'navigation',
    start: DEMO_PAGES.jobs,
    ...jobDetails('Data Analyst'),
    rerun: jobDetails('Product Manager'),
  },
];
