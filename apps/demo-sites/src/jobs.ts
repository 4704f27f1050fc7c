// The job board's listings: fixed data (no randomness, no clock) so an extraction benchmark
// can compare what an agent collected with exactly what the pages show. The board has the
// traps `collect` (docs/specs.md, "streaming extraction") exists for: jobs repeated on the next
// page ("promoted" listings), one card without an id (dedup falls back to title@company), and
// salaries on some jobs only.

export interface Job {
  /** "J-1001"…; null for the listing whose card shows no id. */
  readonly id: string | null;
  readonly title: string;
  readonly company: string;
  readonly location: string;
  /** Shown only in the detail panel, and only for some jobs. */
  readonly salary: string | null;
  readonly employmentType: 'Full-time' | 'Part-time' | 'Contract';
  readonly description: string;
}

export interface JobBoardPage {
  readonly page: number;
  readonly pageCount: number;
  readonly jobs: readonly Job[];
}

const TITLES = [
  'Backend Engineer',
  'Frontend Developer',
  'Data Analyst',
  'Product Manager',
  'UX Designer',
  'DevOps Engineer',
  'QA Engineer',
  'Technical Writer',
  'Mobile Developer',
  'Security Analyst',
  'Machine Learning Engineer',
  'Site Reliability Engineer',
  'Database Administrator',
  'Support Engineer',
  'Solutions Architect',
  'Scrum Master',
  'Data Engineer',
  'Cloud Architect',
  'Business Analyst',
  'Full Stack Developer',
  'Engineering Manager',
  'Platform Engineer',
  'iOS Developer',
  'Android Developer',
  'Network Engineer',
  'Sales Engineer',
  'Research Scientist',
  'Product Designer',
  'Release Manager',
  'IT Administrator',
  'Embedded Engineer',
] as const;

const COMPANIES = [
  'Northwind Traders',
  'Globex Labs',
  'Initech',
  'Acme Robotics',
  'Umbrella Health',
  'Stark Logistics',
  'Wayne Analytics',
] as const;

const LOCATIONS = [
  'Remote (US)',
  'Austin, TX',
  'New York, NY',
  'Seattle, WA',
  'Chicago, IL',
  'Denver, CO',
  'Boston, MA',
] as const;

const TYPES = ['Full-time', 'Full-time', 'Contract', 'Part-time'] as const;

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length] as T;
}

// Two out of three jobs state a salary, in the formats real boards mix.
function salaryFor(index: number): string | null {
  if (index % 3 === 2) return null;
  const low = 80 + ((index * 7) % 60);
  return index % 2 === 0 ? `$${low}K – $${low + 30}K` : `$${low},000 per year`;
}

const ID_JOBS: readonly Job[] = TITLES.map((title, index) => {
  const company = pick(COMPANIES, index);
  return {
    id: `J-${1001 + index}`,
    title,
    company,
    location: pick(LOCATIONS, index * 3),
    salary: salaryFor(index),
    employmentType: pick(TYPES, index),
    description: `${company} is hiring a ${title} to join a small, senior team. You will own work end to end, pair with colleagues across product and engineering, and help us ship reliable software every week.`,
  };
});

/** The listing that has no id anywhere on the page. */
export const UNIDENTIFIED_JOB: Job = {
  id: null,
  title: 'Night Shift Nurse',
  company: 'Riverside Clinic',
  location: 'Springfield, IL',
  salary: '$42 per hour',
  employmentType: 'Part-time',
  description:
    'Riverside Clinic needs a registered nurse for three night shifts a week in the urgent care unit. Current state license required.',
};

const byId = (id: string): Job => {
  const job = ID_JOBS.find((j) => j.id === id);
  if (!job) throw new Error(`no job ${id}`);
  return job;
};
const range = (from: number, to: number): Job[] => {
  const jobs: Job[] = [];
  for (let n = from; n <= to; n++) jobs.push(byId(`J-${n}`));
  return jobs;
};

/**
 * 35 cards over 3 pages, 32 distinct jobs: J-1012 and J-1022 are "promoted" again at the top
 * of the next page, and the unidentified job is listed on pages 2 and 3.
 */
const PAGES: readonly (readonly Job[])[] = [
  range(1001, 1012),
  [byId('J-1012'), ...range(1013, 1022), UNIDENTIFIED_JOB],
  [byId('J-1022'), ...range(1023, 1031), UNIDENTIFIED_JOB],
];

export const JOB_BOARD = {
  pageCount: PAGES.length,
  /** Every card, page by page, in display order. */
  pages: PAGES,
  /** Each distinct job once, in first-seen order (what a correct extraction collects). */
  uniqueJobs: [...new Set(PAGES.flat())] as readonly Job[],
} as const;

/** Page `page` (1-based), or null when there is no such page. */
export function jobBoardPage(page: number): JobBoardPage | null {
  const jobs = Number.isInteger(page) ? PAGES[page - 1] : undefined;
  return jobs ? { page, pageCount: PAGES.length, jobs } : null;
}
