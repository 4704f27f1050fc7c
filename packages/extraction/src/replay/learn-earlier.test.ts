// Learning from items read off the page on an earlier visit (a collecting routine's saved
// items): a card beside them that the recipe would leave out may be one added since, so the
// learner declines rather than take it for a look-alike the model skipped (LearnOptions).
import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { learnRecipe } from './learn';

interface Job {
  title: string;
  company: string;
  jobId?: string;
}
const SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      company: { type: 'string' },
      jobId: { type: 'string' },
    },
    required: ['title'],
  },
};
const A: Job = { title: 'Senior Backend Engineer', company: 'Acme Corp', jobId: 'J-1001' };
const B: Job = { title: 'Staff Data Analyst', company: 'Globex', jobId: 'J-1002' };
const NEW: Job = { title: 'Lead Cloud Architect', company: 'Initech', jobId: 'J-1003' };

function card(job: Job, extra = ''): string {
  const id = job.jobId ? ` data-job-id="${job.jobId}"` : '';
  return `<li><article class="job-card"${id}><h3>${job.title}</h3>${extra}
  <p class="company">${job.company}</p>${job.jobId ? `<p class="ref">${job.jobId}</p>` : ''}</article></li>`;
}

const board = (cards: string[], aside = '') =>
  `<html><body><main><h1>Jobs</h1><ul class="job-list">${cards.join('\n')}</ul>${aside}</main></body></html>`;

const earlier = { fromEarlierVisit: true };

describe('learnRecipe from items of an earlier visit', () => {
  it('declines when a card beside them is one the item selector leaves out', () => {
    const fresh = { title: NEW.title, company: NEW.company };
    const doc = page(board([card(fresh), card(A), card(B)]));
    // The model's own answer on this page: the card it left out was left out on purpose.
    const now = learnRecipe(doc, [A, B], SCHEMA);
    expect(now.recipe?.container).toBe('article[data-job-id]');
    const then = learnRecipe(doc, [A, B], SCHEMA, earlier);
    expect(then.recipe).toBeNull();
    expect(then).toMatchObject({ reason: expect.stringContaining('Lead Cloud Architect') });
  });

  it('learns when the card added since is one the recipe reads', () => {
    const doc = page(board([card(NEW), card(A), card(B)]));
    const learned = learnRecipe(doc, [A, B], SCHEMA, earlier);
    if (!learned.recipe) throw new Error(learned.reason);
    expect(applyRecipe(doc, learned.recipe).data).toEqual([NEW, A, B]);
  });

  it('learns when what it leaves out is marked as an advert, or in another list', () => {
    const ad = card(
      { title: 'Reach ten thousand engineers', company: 'Hireline Ads' },
      '<span>Sponsored</span>',
    );
    const aside = `<aside><h2>Recommended</h2><ul>${card({ title: 'Head of Quantum Sales', company: 'Aperture' })}</ul></aside>`;
    const doc = page(board([card(A), ad, card(B)], aside));
    const learned = learnRecipe(doc, [A, B], SCHEMA, earlier);
    if (!learned.recipe) throw new Error(learned.reason);
    expect(applyRecipe(doc, learned.recipe).data).toEqual([A, B]);
  });
});
