// A routine's `collect` step on the second page of a job board, over the real collect service,
// ExtractionService and store, with each page's HTML as the extension sends it (the content
// snapshot: @tandem/page's cleaned copy, sentHtml), not the board's own markup. The board marks
// the job it repeats from the page before "Promoted", in the card's heading beside the title
// button (apps/demo-sites/public/jobs/jobs.js). The selectors a rerun learned on page 1 must
// read page 2 as the model did: the title without its badge, the repeated job as the job the
// first run stored, while an advert or a "Recommended" strip still sends the page to the agent.
import type { Routine } from '@tandem/contracts';
import { sentHtml } from '@tandem/extraction/testing';
import { describe, expect, it } from 'vitest';
import {
  collectedTrace,
  collectEnv,
  collectRerun,
  savedCollectRoutine,
  type CollectEnv,
} from '../testing/collect-runs';
import type { RoutineRun } from './run';

const PAGE_1 = 'https://jobs.test/jobs/';
const PAGE_2 = 'https://jobs.test/jobs/?page=2';
const goal = (count: number) => `Collect ${count} jobs`;

interface Job {
  title: string;
  company: string;
  location: string;
  jobId: string;
}

const LEVELS = ['Junior', 'Senior', 'Staff', 'Lead'];
const ROLES = ['Backend', 'Frontend', 'Platform', 'Data', 'Mobile', 'Security', 'Cloud', 'QA'];
const COMPANIES = ['Northwind Traders', 'Globex Labs', 'Initech', 'Acme Robotics', 'Wayne'];
const PLACES = ['Remote (US)', 'Austin, TX', 'New York, NY', 'Seattle, WA', 'Denver, CO'];
/** Job `n` (0 ≤ n < 32): a distinct title, so a job's values are read from its card only. */
const job = (n: number): Job => ({
  title: `${LEVELS[n % 4]} ${ROLES[Math.floor(n / 4) % 8]} Engineer`,
  company: COMPANIES[n % 5] as string,
  location: PLACES[(n * 2) % 5] as string,
  jobId: `J-${1001 + n}`,
});

/** A card as jobs.js renders it: the title a button in the heading, the badge beside it. */
function card(j: Job, index: number, badge: string | null): string {
  const mark = badge ? `<span class="badge">${badge}</span>` : '';
  return `<li><article class="job-card" data-index="${index}" data-job-id="${j.jobId}" aria-labelledby="job-card-${index}-title">
  <h3 id="job-card-${index}-title"><button type="button" aria-controls="job-detail" aria-expanded="false">${j.title}</button>${mark}</h3>
  <p class="company">${j.company}</p><p class="location">${j.location}</p><p class="job-id">Job ID: ${j.jobId}</p>
</article></li>`;
}

/** The board's page: its cards (a badge on some), and what stands beside the list. */
function boardPage(cards: { job: Job; badge?: string }[], beside = ''): string {
  const list = cards.map((c, i) => card(c.job, i, c.badge ?? null)).join('\n');
  return `<!doctype html><html><head><title>Software jobs · Hireline</title></head>
<body><main class="jobs-main"><h1>Software jobs</h1>
<div class="board"><section aria-labelledby="results-heading"><h2 id="results-heading">Job listings</h2>
<ul id="job-list" class="job-list">${list}</ul></section>${beside}</div>
<nav class="pagination"><a href="/jobs/?page=2" rel="next">Next page</a></nav></main></body></html>`;
}

const page1Jobs = Array.from({ length: 12 }, (_, n) => job(n));
const page2Jobs = Array.from({ length: 11 }, (_, n) => job(12 + n));
const page1 = boardPage(page1Jobs.map((j) => ({ job: j })));
/** Page 2 as the demo board shows it: page 1's last job first again, marked "Promoted". */
const page2 = (extra: { job: Job; badge?: string }[] = [], beside = '') =>
  boardPage(
    [
      { job: page1Jobs[11] as Job, badge: 'Promoted' },
      ...page2Jobs.map((j) => ({ job: j })),
      ...extra,
    ],
    beside,
  );

/**
 * The first run collected 15 jobs: page 1's twelve, then on page 2 the repeated job (stored
 * already, from page 1) and three more. Its routine's page-2 step is what is rerun here; a
 * rerun of its page-1 step has learned the selectors from page 1's saved items first.
 */
async function firstRunAndPage1Rerun(env: CollectEnv): Promise<Routine> {
  const asItems = (jobs: readonly Job[]) => jobs.map((data) => ({ type: 'job', data }));
  const onPage1 = await collectedTrace(env, {
    goal: goal(15),
    count: 15,
    url: PAGE_1,
    items: asItems(page1Jobs),
  });
  const onPage2 = await collectedTrace(env, {
    goal: goal(15),
    count: 15,
    url: PAGE_2,
    items: asItems([page1Jobs[11] as Job, ...page2Jobs.slice(0, 3)]),
  });
  const first = savedCollectRoutine(goal(12), onPage1);
  const html = sentHtml(page1, PAGE_1);
  const learned = await collectRerun(env, first, {
    taskId: 'task-page-1',
    goal: goal(12),
    count: 12,
    url: PAGE_1,
    html,
  });
  expect(learned.after.status, learned.after.routineRun?.fellBack ?? '').toBe('completed');
  return savedCollectRoutine(goal(15), onPage2);
}

/** The page-2 step rerun on `html` for `count` jobs: its outcome and the jobs it stored. */
async function rerunPage2(env: CollectEnv, routine: Routine, html: string, count: number) {
  const { after } = await collectRerun(env, routine, {
    taskId: 'task-page-2',
    goal: goal(count),
    count,
    url: PAGE_2,
    html: sentHtml(html, PAGE_2),
  });
  const stored = (await env.collect.items('t1', 'task-page-2', 'job')).map((i) => i.data);
  return { status: after.status, fellBack: (after.routineRun as RoutineRun).fellBack, stored };
}

describe('a routine that collects on page 2 of a board that repeats a job as "Promoted"', () => {
  it('sends the promoted card’s title and badge as two elements of its heading', () => {
    const html = sentHtml(page2(), PAGE_2);
    expect(html).toContain(
      `<h3 id="job-card-0-title"><span>${page1Jobs[11]?.title}</span> <span class="badge">Promoted</span></h3>`,
    );
  });

  it('reads page 2 with the selectors learned on page 1, the repeated job as stored', async () => {
    const env = await collectEnv();
    const routine = await firstRunAndPage1Rerun(env);
    const run = await rerunPage2(env, routine, page2(), 12);
    expect(run.fellBack).toBeNull();
    expect(run.status).toBe('completed');
    expect(run.stored).toEqual([page1Jobs[11], ...page2Jobs]);
    expect(env.llm.calls).toHaveLength(0);
  });

  it('still hands over an advert, a job marked unlike any stored, and a "Recommended" strip', async () => {
    const env = await collectEnv();
    const routine = await firstRunAndPage1Rerun(env);
    const advert = { job: job(29), badge: 'Sponsored' };
    const fresh = { job: job(30), badge: 'Promoted' };
    const strip = `<aside class="recommended"><h2>Recommended for you</h2><ul class="job-list">${card(job(31), 90, null)}</ul></aside>`;
    for (const [html, reason] of [
      [page2([advert]), /item 13 is marked as an advert \(Sponsored\)/],
      [page2([fresh]), /item 13 is marked as an advert \(Promoted\)/],
      [page2([], strip), /a heading outside the items divides them here/],
    ] as const) {
      const run = await rerunPage2(env, routine, html, 12);
      expect(run.status).not.toBe('completed');
      expect(run.fellBack).toMatch(reason);
    }
  });
});
