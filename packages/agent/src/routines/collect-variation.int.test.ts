// Generated variation of a job board between a routine's first run and its rerun (the team's
// rule: every feature that reads outside input gets fast-check variation, fixed seed in CI).
// The first run's model collected the jobs of a generated board page (cards as the demo board
// renders them, apps/demo-sites/public/jobs/jobs.js); the routine's `collect` step reruns that
// on a page that changed since: jobs gone, added, reordered or renamed, a promoted copy of a job
// at the top, a job with no id, an advert tile or a "Recommended" strip beside them, cards
// wrapped or reclassed, no jobs at all, and a goal that asks for fewer or more than the page
// lists. What users rely on: a rerun that says it is done stored exactly the page's first jobs
// up to the count, in page order (never an advert, never a job the page no longer shows);
// otherwise it handed over to the agent. The expected jobs come from the generator's own data,
// never from the code under test.
import type { Routine } from '@tandem/contracts';
import { sentHtml } from '@tandem/extraction/testing';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { routeAfterDispatch, routeAfterRoutineStep } from '../routes';
import {
  collectedTrace,
  collectRerun,
  savedCollectRoutine,
  collectEnv,
  type CollectEnv,
} from '../testing/collect-runs';
import type { RoutineTraceEntry } from './trace';

const URL = 'https://jobs.test/jobs/?page=1';
const SEED = 33;
const RUNS = 100;
const goal = (count: number) => `Collect ${count} jobs`;

interface Job {
  title: string;
  company: string;
  location: string;
  /** The board's id ("J-1001"); one job of the demo board has none. */
  id: string | null;
}
type Layout = 'plain' | 'wrapped' | 'reclassed';
/** A "Recommended" strip after the list: its own markup, or the list's cards. */
type Strip = 'list' | 'cards' | null;
interface BoardPage {
  jobs: Job[];
  /** Index of the job whose card carries a "Promoted" badge (a real job, as on the board). */
  badge: number | null;
  /** A promoted copy of this job (an index into `jobs`) shown first, as boards repeat them. */
  promotedCopy: number | null;
  layout: Layout;
  /** Where an advert tile sits among the cards (an index into them), or null. */
  ad: number | null;
  recommended: Strip;
}

// Titles, companies and places share no words, and none of them reads as an advert or a number,
// so a job's values can only be read from its own card.
const LEVELS = ['Junior', 'Senior', 'Staff', 'Lead'];
const ROLES = ['Backend', 'Frontend', 'Platform', 'Data', 'Mobile', 'Security', 'Cloud', 'QA'];
const KINDS = ['Engineer', 'Developer', 'Architect', 'Analyst', 'Specialist', 'Consultant'];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Labs', 'Wayne'];
const PLACES = ['Berlin', 'Remote', 'Lisbon', 'Oslo', 'Madrid', 'Vienna', 'Prague'];

/** Job `n` (0 ≤ n < 192): distinct titles, so title@company tells jobs apart as well. */
const job = (n: number): Job => ({
  title: `${LEVELS[n % 4]} ${ROLES[Math.floor(n / 4) % 8]} ${KINDS[Math.floor(n / 32) % 6]}`,
  company: COMPANIES[n % 7] as string,
  location: PLACES[(n * 3) % 7] as string,
  id: `J-${1001 + n}`,
});

// Look-alikes: in the board's own card markup, but no job of the board.
const AD: Job = {
  title: 'Reach ten thousand engineers',
  company: 'Hireline Ads',
  location: 'Everywhere',
  id: null,
};
const RECOMMENDED: Job[] = [
  { title: 'Principal Robotics Researcher', company: 'Cyberdyne', location: 'Tokyo', id: 'R-1' },
  { title: 'Head of Quantum Sales', company: 'Aperture', location: 'Seattle', id: 'R-2' },
];

/** A card as jobs.js renders it: the id both as data attribute and as text, when it has one. */
function boardCard(j: Job, index: number, promoted: boolean, extraClass = ''): string {
  const id = j.id ? ` data-job-id="${j.id}"` : '';
  const badge = promoted ? '<span class="badge">Promoted</span>' : '';
  return `<li><article class="job-card${extraClass}" data-index="${index}"${id} aria-labelledby="job-card-${index}-title">
  <h3 id="job-card-${index}-title"><button type="button" aria-controls="job-detail" aria-expanded="false">${j.title}</button>${badge}</h3>
  <p class="company">${j.company}</p>
  <p class="location">${j.location}</p>${j.id ? `\n  <p class="job-id">Job ID: ${j.id}</p>` : ''}
</article></li>`;
}

/** A card in another markup: the board renamed its classes and tags. */
function reclassedCard(j: Job, promoted: boolean): string {
  const id = j.id ? ` data-posting="${j.id}"` : '';
  const badge = promoted ? ' <em class="flag">Promoted</em>' : '';
  return `<li class="result"><div class="posting"${id}>
  <h4 class="posting-title"><a href="/jobs/${j.id ?? 'x'}">${j.title}</a>${badge}</h4>
  <span class="employer">${j.company}</span> · <span class="place">${j.location}</span>${j.id ? `\n  <small class="ref">Job ID: ${j.id}</small>` : ''}
</div></li>`;
}

function cardOf(j: Job, index: number, promoted: boolean, layout: Layout): string {
  if (layout === 'reclassed') return reclassedCard(j, promoted);
  const card = boardCard(j, index, promoted);
  return layout === 'wrapped'
    ? card.replace(/^<li>(.*)<\/li>$/s, '<li><div class="cell">$1</div></li>')
    : card;
}

const adTile = (index: number) =>
  boardCard(AD, index, false, ' sponsored').replace(
    '</h3>',
    '<span class="badge">Sponsored</span></h3>',
  );

function recommendedStrip(strip: Strip): string {
  if (strip === null) return '';
  const entries = RECOMMENDED.map((r, k) =>
    strip === 'cards'
      ? boardCard(r, 100 + k, false)
      : `<li class="rec"><h4>${r.title}</h4><span>${r.company}</span> · <span>${r.location}</span></li>`,
  ).join('\n');
  return `<aside class="recommended"><h2>Recommended for you</h2><ul class="${strip === 'cards' ? 'job-list' : 'recs'}">${entries}</ul></aside>`;
}

/** The page's cards in order: the promoted copy first, then the jobs, an advert among them. */
function cardsOf(page: BoardPage): string[] {
  const shown = shownJobs(page);
  const cards = shown.map((s, i) => cardOf(s.job, i, s.promoted, page.layout));
  if (page.ad !== null) cards.splice(Math.min(page.ad, cards.length), 0, adTile(cards.length));
  return cards;
}

/** The jobs' cards as the page shows them, top to bottom (the look-alikes left out). */
function shownJobs(page: BoardPage): { job: Job; promoted: boolean }[] {
  const copy = page.promotedCopy === null ? null : page.jobs[page.promotedCopy];
  return [
    ...(copy ? [{ job: copy, promoted: true }] : []),
    ...page.jobs.map((j, k) => ({ job: j, promoted: k === page.badge })),
  ];
}

/** The page's HTML, as the board would render it (index.html around jobs.js's cards). */
function boardHtml(page: BoardPage): string {
  const cards = cardsOf(page);
  const list =
    cards.length === 0
      ? '<p class="hint">No jobs match your search.</p>'
      : `<ul id="job-list" class="job-list">${cards.join('\n')}</ul>`;
  return `<!doctype html><html><head><title>Software jobs · Hireline</title></head>
<body><header class="site-header"><p>Hireline</p></header>
<main class="jobs-main"><h1>Software jobs</h1><p id="results-summary" class="hint">Page 1 of 3 · ${page.jobs.length} jobs</p>
<div class="board"><section aria-labelledby="results-heading"><h2 id="results-heading">Job listings</h2>${list}</section>
${recommendedStrip(page.recommended)}</div>
<nav id="pagination" class="pagination"><span aria-current="page">Page 1 of 3</span> <a href="/jobs/?page=2" rel="next">Next page</a></nav></main>
<footer class="site-footer">Hireline · demo site</footer></body></html>`;
}

/** What a model reads off a card: the title without its badge, and the id when there is one. */
const itemOf = (j: Job): Record<string, string> => ({
  title: j.title,
  company: j.company,
  location: j.location,
  ...(j.id ? { jobId: j.id } : {}),
});

/** A job as a user tells it apart: its id, or title@company for the job without one. */
const keyOf = (item: Record<string, unknown>): string =>
  typeof item.jobId === 'string' && item.jobId
    ? `job:${item.jobId}`
    : `${String(item.title)}@${String(item.company)}`.toLowerCase();

/** The page's distinct jobs in page order (a promoted copy counts where it is shown first). */
function distinctJobs(page: BoardPage): Job[] {
  const seen = new Set<string>();
  return shownJobs(page)
    .map((s) => s.job)
    .filter((j) => {
      const key = keyOf(itemOf(j));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

type Fate = 'keep' | 'drop' | 'rename';
interface Scenario {
  first: BoardPage;
  rerun: BoardPage;
  /** The count the rerun's goal asks for. */
  count: number;
  /** The routine ran once on the unchanged page first: the rerun replays, it does not learn. */
  warm: boolean;
}

/** Jobs start..start+7 may be on the first run's page; later ones are the new jobs. */
const FRESH = 8;

/** A perturbation drawn once in `1 + odds` scenarios: one at a time shows what each does. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, odds = 3): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: odds, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const fate: fc.Arbitrary<Fate> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('keep' as const) },
  { weight: 1, arbitrary: fc.constant('drop' as const) },
  { weight: 1, arbitrary: fc.constant('rename' as const) },
);

/** What changed around the jobs: most reruns see none or one of these, some two. */
const LOOKS = [
  'promoted copy',
  'advert',
  'recommended list',
  'recommended cards',
  'wrapped',
  'reclassed',
] as const;
const look = fc.constantFrom(...LOOKS);
const looks: fc.Arbitrary<(typeof LOOKS)[number][]> = fc.oneof(
  { weight: 5, arbitrary: fc.constant([] as (typeof LOOKS)[number][]) },
  { weight: 4, arbitrary: look.map((l) => [l]) },
  { weight: 1, arbitrary: fc.tuple(look, look) },
);

/** The rerun's jobs: each first-run job's fate, new ones put in (one maybe with no id). */
function rerunJobs(
  start: number,
  first: readonly Job[],
  change: {
    fates: Fate[];
    added: number[];
    noId: boolean;
    swaps: [number, number][];
    wipe: boolean;
  },
): Job[] {
  if (change.wipe) return [];
  let fresh = start + FRESH;
  const jobs = first.flatMap((j, k): Job[] => {
    const f = change.fates[k] ?? 'keep';
    if (f === 'drop') return [];
    return f === 'rename' ? [{ ...j, title: job(fresh++).title }] : [j];
  });
  // The board's own quirk: at most one job without an id (ids alone would not tell two apart).
  const hasNoId = jobs.some((j) => j.id === null);
  for (const [k, at] of change.added.entries()) {
    const added = job(fresh++);
    const bare = change.noId && k === 0 && !hasNoId;
    jobs.splice(Math.min(at, jobs.length), 0, bare ? { ...added, id: null } : added);
  }
  for (const [a, b] of change.swaps) {
    if (jobs.length < 2) break;
    const i = a % jobs.length;
    const j = b % jobs.length;
    [jobs[i], jobs[j]] = [jobs[j] as Job, jobs[i] as Job];
  }
  return jobs;
}

/** The first run's page: the model collected all its jobs (the goal's count is theirs). */
const firstPage = fc
  .record({ start: fc.integer({ min: 0, max: 170 }), size: fc.integer({ min: 1, max: 8 }) })
  .chain(({ start, size }) =>
    fc
      .record({
        noId: sometimes(fc.nat(size - 1), 2),
        badge: sometimes(fc.nat(size - 1), 2),
      })
      .map(({ noId, badge }) => ({
        start,
        page: {
          jobs: Array.from({ length: size }, (_, k) => ({
            ...job(start + k),
            ...(k === noId ? { id: null } : {}),
          })),
          badge,
          promotedCopy: null,
          layout: 'plain' as const,
          ad: null,
          recommended: null,
        } satisfies BoardPage,
      })),
  );

const scenario: fc.Arbitrary<Scenario> = firstPage.chain(({ start, page: first }) =>
  fc
    .record({
      fates: fc.array(fate, { minLength: first.jobs.length, maxLength: first.jobs.length }),
      added: fc.array(fc.nat(8), { maxLength: 3 }),
      noId: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, fc.constant(true)),
      swaps: fc.array(fc.tuple(fc.nat(10), fc.nat(10)), { maxLength: 2 }),
      // A board that lists nothing any more (a search that matches nothing).
      wipe: fc.oneof(
        { weight: 1, arbitrary: fc.constant(true) },
        { weight: 9, arbitrary: fc.constant(false) },
      ),
      looks,
      at: fc.nat(10),
      // Fewer than the page lists, all of them, or more than it has.
      count: fc.tuple(
        fc.constantFrom('less', 'less', 'all', 'all', 'more'),
        fc.integer({ min: 1, max: 4 }),
      ),
      warm: fc.boolean(),
    })
    .map(({ looks: seen, at, count: [mode, delta], warm, ...change }) => {
      const jobs = rerunJobs(start, first.jobs, change);
      const l = seen.includes('reclassed')
        ? 'reclassed'
        : seen.includes('wrapped')
          ? 'wrapped'
          : 'plain';
      const strip = seen.includes('recommended cards')
        ? 'cards'
        : seen.includes('recommended list')
          ? 'list'
          : null;
      const rerun: BoardPage = {
        jobs,
        badge: null,
        promotedCopy: seen.includes('promoted copy') && jobs.length > 0 ? at % jobs.length : null,
        layout: l,
        ad: seen.includes('advert') ? at : null,
        recommended: strip,
      };
      const n = distinctJobs(rerun).length;
      const count =
        mode === 'less' ? Math.max(1, n - delta) : mode === 'all' ? Math.max(1, n) : n + delta;
      return { first, rerun, count, warm };
    }),
);

type Setup = CollectEnv;

/** The first run: the model collected the page's jobs (through the collect part, as it does). */
const firstRun = (env: Setup, page: BoardPage): Promise<RoutineTraceEntry[]> =>
  collectedTrace(env, {
    goal: goal(page.jobs.length),
    count: page.jobs.length,
    url: URL,
    items: page.jobs.map((j) => ({ type: 'job', data: itemOf(j) })),
  });

const saved = (count: number, trace: RoutineTraceEntry[]): Routine =>
  savedCollectRoutine(goal(count), trace);

/**
 * One rerun of `routine` for `count` jobs: the HTML asked for, then the page's `html` as the
 * extension sends it (its content snapshot, which unwraps the title button in each heading).
 */
async function rerun(env: Setup, routine: Routine, taskId: string, count: number, html: string) {
  const { asked, back, after } = await collectRerun(env, routine, {
    taskId,
    goal: goal(count),
    count,
    url: URL,
    html: sentHtml(html, URL),
  });
  expect(asked.pageRequest).toEqual({ mode: 'content', format: 'html' });
  expect(back && routeAfterDispatch(back)).toBe('routine_step');
  const stored = (await env.collect.items('t1', taskId, 'job')).map((i) => i.data);
  return { after, stored };
}

/**
 * A stored item as compared: the fields a user reads, the id null where the card has none. A
 * rerun reads the fields the first run collected: when its jobs had no id (a page of the one
 * job without), the routine's jobs carry none either, by design.
 */
function viewOf(first: BoardPage) {
  const ids = first.jobs.some((j) => j.id !== null);
  return (item: Record<string, unknown>) => ({
    title: item.title,
    company: item.company,
    location: item.location,
    jobId: ids ? (item.jobId ?? null) : null,
  });
}

/** Only the jobs changed: same markup, no look-alike or promoted copy, the count on the page. */
const benign = (s: Scenario) =>
  s.warm &&
  // A job with no id where the saved ones all had one: the learned schema requires the id.
  (s.first.jobs.some((j) => j.id === null) || s.rerun.jobs.every((j) => j.id !== null)) &&
  s.rerun.layout === 'plain' &&
  s.rerun.ad === null &&
  !s.rerun.recommended &&
  s.rerun.promotedCopy === null &&
  s.count <= distinctJobs(s.rerun).length;

type Outcome = 'completed' | 'handed over';

/** One scenario end to end; throws when a rerun finished with jobs the page does not list. */
async function check(s: Scenario): Promise<Outcome> {
  const env = await collectEnv();
  const view = viewOf(s.first);
  const firstCount = s.first.jobs.length;
  const routine = saved(firstCount, await firstRun(env, s.first));
  if (s.warm) {
    // The unchanged page is what the routine was made on: it must rerun it on its own.
    const warm = await rerun(env, routine, 'task-warm', firstCount, boardHtml(s.first));
    expect(warm.after.status, warm.after.routineRun?.fellBack ?? '').toBe('completed');
    expect(warm.stored.map(view)).toEqual(s.first.jobs.map((j) => view(itemOf(j))));
  }
  const { after, stored } = await rerun(env, routine, 'task-rerun', s.count, boardHtml(s.rerun));
  // The promoted copy repeats a job listed below it, under a mark boards use for adverts: a
  // rerun may count it where it is shown or skip it for the listing itself, both in page order.
  const firsts = [s.rerun, { ...s.rerun, promotedCopy: null }].map((p) =>
    distinctJobs(p)
      .slice(0, s.count)
      .map((j) => view(itemOf(j))),
  );
  if (after.status === 'completed') {
    expect(after.routineRun?.fellBack).toBeNull();
    // Exactly the page's first jobs up to the count, in its order: no advert or recommendation,
    // no job of the first page that is gone, no stale title, the promoted copy once.
    const got = stored.map(view);
    expect(got).toEqual(firsts.find((f) => isDeepStrictEqual(f, got)) ?? firsts[0]);
    expect(stored).toHaveLength(s.count);
    return 'completed';
  }
  expect(after.routineRun?.fellBack).toEqual(expect.any(String));
  expect(routeAfterRoutineStep(after)).toBe('action_generation');
  // What a rerun stored before handing over stays with the task: it must be the page's jobs.
  const onPage = new Set(distinctJobs(s.rerun).map((j) => JSON.stringify(view(itemOf(j)))));
  for (const item of stored) expect(onPage).toContain(JSON.stringify(view(item)));
  // A change to the jobs alone is what a routine is for: it must not give up on it.
  expect(benign(s), after.routineRun?.fellBack ?? '').toBe(false);
  return 'handed over';
}

describe('a routine that collects from a job board that changed since its first run', () => {
  it('stores exactly the page’s first jobs up to the count, or hands over to the agent', async () => {
    const outcomes: Outcome[] = [];
    let benignRuns = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        benignRuns += Number(benign(s));
        outcomes.push(await check(s));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The property is not met by handing everything over: many changed pages still complete.
    const completed = outcomes.filter((o) => o === 'completed').length;
    expect(completed).toBeGreaterThan(outcomes.length / 4);
    expect(completed).toBeLessThan(outcomes.length);
    // The "must complete" check ran on enough pages to mean something.
    expect(benignRuns).toBeGreaterThan(5);
  }, 60_000);

  const board = (jobs: Job[], extra: Partial<BoardPage> = {}): BoardPage => ({
    jobs,
    badge: null,
    promotedCopy: null,
    layout: 'plain',
    ad: null,
    recommended: null,
    ...extra,
  });

  // Shrunk from the property (seed 33): the first page showed a job with a "Promoted" badge, as
  // the demo board marks listings repeated from its previous page, and the model collected it.
  // "Promoted" is an advert word, and the spot check declined every replay with a marked item,
  // even on the page the recipe was learned from, where the model took it as an item: the
  // routine could never rerun that page. The recipe now keeps the marks of the model's own
  // items (itemMarks), and only other marks make a replay decline.
  it('reruns a board whose first page had a "Promoted" job the model collected', async () => {
    const first = board([job(0), job(1)], { badge: 0 });
    for (const warm of [false, true])
      expect(await check({ first, rerun: first, count: 2, warm })).toBe('completed');
  });

  // Shrunk from the property (seed 33): on the rerun that learns (no strategy yet), the page
  // lists a new job without an id above the saved ones. The learner picked the item selector
  // with the fewest extra elements, "article[data-job-id]", which leaves the id-less card out,
  // and the routine completed "Collect 2 jobs" skipping the first job on the page. A card
  // beside the items that the recipe leaves out is one the model skipped only when the model
  // read the page now; the saved items come from an earlier visit, so the learner is told so
  // and declines (the card may be new), and the step hands over to the agent.
  it('does not skip a new job without an id on the rerun that learns', async () => {
    const [a, b] = [job(0), job(1)];
    const fresh = { ...job(2), id: null };
    const rerun = board([fresh, a, b]);
    expect(await check({ first: board([a, b]), rerun, count: 2, warm: false })).toBe('handed over');
  });

  // As in read-variation.int.test.ts, in the same replay: with the strategy learned on the
  // unchanged board, the board redesigns its cards (or lists nothing now) and only a
  // "Recommended" strip still uses the old card markup. The recipe matched exactly those cards,
  // every spot check passed, and the routine stored the recommendations as jobs. The recipe now
  // keeps the heading its items sat under ("Job listings"); these sit under "Recommended for
  // you", so the replay declines (replay/sections.ts): the model collects the redesigned board,
  // or, with no jobs, the routine hands over. The generator draws these cases too.
  it('does not store a strip of old-markup cards as the jobs of a redesigned board', async () => {
    const first = board([job(0), job(1)]);
    const strip = { recommended: 'cards' as const };
    const redesigned = board([job(0), job(1)], { ...strip, layout: 'reclassed' });
    expect(await check({ first, rerun: redesigned, count: 2, warm: true })).toBe('completed');
    expect(await check({ first, rerun: board([], strip), count: 2, warm: true })).toBe(
      'handed over',
    );
  });
});
