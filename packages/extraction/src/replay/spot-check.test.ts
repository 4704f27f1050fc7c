import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { CARD_SCHEMA, cardsPage, products } from './fixtures';
import { learnRecipe } from './learn';
import type { ReplayRecipe } from './recipe';
import { spotCheck } from './spot-check';

const page1 = products(40, 1);

function learned(html: string, data: unknown = page1): ReplayRecipe {
  const result = learnRecipe(page(html), data, CARD_SCHEMA);
  if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
  return result.recipe;
}

describe('spotCheck', () => {
  it('keeps a bare title selector when only an attribute of the card is read beside it', () => {
    // The id is the card's own data-job-id: it reads no text, so the card's one <button> is
    // still the title's only candidate (a job board's cards).
    const jobs = ['Backend Engineer', 'Data Analyst', 'QA Engineer'].map((title, i) => ({
      title,
      jobId: `J-${1001 + i}`,
    }));
    const html = `<ul>${jobs
      .map(
        (j) =>
          `<li><article class="job-card" data-job-id="${j.jobId}"><h3><button type="button">${j.title}</button></h3><p class="company">Initech</p></article></li>`,
      )
      .join('')}</ul>`;
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { title: { type: 'string' }, jobId: { type: 'string' } },
        required: ['title', 'jobId'],
      },
    };
    const result = learnRecipe(page(html), jobs, schema);
    if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
    expect(result.recipe.fields).toMatchObject({
      title: { selector: 'button', source: 'text' },
      jobId: { selector: null, source: 'attr', attr: 'data-job-id' },
    });
    const doc = page(html);
    expect(applyRecipe(doc, result.recipe).data).toEqual(jobs);
  });

  // The job board's title as its snapshot sends it: the heading's button unwrapped into a
  // <span>, its "Promoted" badge a <span> beside it on the job repeated from the page before.
  describe('a badge beside a title read by a bare selector', () => {
    const job = (n: number) => ({ title: `Engineer ${'ABCDEFGH'[n]}`, company: `Co ${n}` });
    const jobsPage = (badges: Record<number, string>, before = false) =>
      `<ul>${[0, 1, 2, 3]
        .map((n) => {
          const j = job(n);
          const badge = badges[n] ? `<span class="badge">${badges[n]}</span>` : '';
          const heading = before
            ? `${badge} <span>${j.title}</span>`
            : `<span>${j.title}</span> ${badge}`;
          return `<li><article class="job-card"><h3>${heading}</h3><p class="company">${j.company}</p></article></li>`;
        })
        .join('')}</ul>`;
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { title: { type: 'string' }, company: { type: 'string' } },
        required: ['title'],
      },
    };
    const jobs = [0, 1, 2, 3].map(job);
    const recipe = (): ReplayRecipe => {
      const result = learnRecipe(page(jobsPage({})), jobs, schema);
      if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
      expect(result.recipe.fields.title?.selector).toBe('span');
      return result.recipe;
    };
    const check = (html: string, known: unknown[] = []) => {
      const doc = page(html);
      const learnedRecipe = recipe();
      return spotCheck(doc, learnedRecipe, applyRecipe(doc, learnedRecipe).data, { known });
    };

    it('takes a marked job the caller knows as an item, and reads its title alone', () => {
      const html = jobsPage({ 1: 'Promoted' });
      const doc = page(html);
      expect(applyRecipe(doc, recipe()).data).toEqual(jobs);
      expect(check(html, [job(1)])).toBeNull();
    });

    it('declines the mark on a job nobody knows, or on one that reads otherwise', () => {
      expect(check(jobsPage({ 1: 'Promoted' }))).toMatch(
        /^item 2 is marked as an advert \(Promoted\)/,
      );
      expect(check(jobsPage({ 1: 'Sponsored' }), [{ ...job(1), company: 'Co 9' }])).toMatch(
        /^item 2 is marked as an advert \(Sponsored\)/,
      );
    });

    it('declines a badge before the title: the bare selector reads the badge', () => {
      expect(check(jobsPage({ 1: 'Promoted' }, true), [job(1)])).toMatch(
        /^item 2: "title": its selector "span" names elements by tag only and matches 2 candidates/,
      );
    });
  });

  it('passes a replay of a page of the same shape', () => {
    const recipe = learned(cardsPage(page1));
    const doc = page(cardsPage(products(12, 400)));
    expect(spotCheck(doc, recipe, applyRecipe(doc, recipe).data)).toBeNull();
  });

  it('fails, saying why, when the cards were renamed (div.item): the replay finds nothing', () => {
    const recipe = learned(cardsPage(page1));
    const doc = page(cardsPage(products(20, 400), { cardTag: 'div', cardClass: () => 'item' }));
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(0);
    expect(replay.data).toEqual([]);
    expect(replay.warnings).toContain(
      'the item selector "div.grid > article.product-card" matches nothing',
    );
    expect(spotCheck(doc, recipe, replay.data)).toBe(
      'the item selector "div.grid > article.product-card" matches nothing on this page (the layout changed?)',
    );
  });

  it('fails when the selector catches only a few of many look-alike cards', () => {
    // Every card of the learning page was in stock, so "article.in-stock" fit it as well as
    // any selector; on a page of mostly sold-out cards it catches 4 of 30.
    const recipe = learned(cardsPage(page1, { cardClass: () => 'product-card in-stock' }));
    expect(recipe.container).toBe('article.in-stock');
    const list = products(30, 400);
    const doc = page(
      cardsPage(list, {
        cardClass: (_, i) => `product-card ${i % 8 === 0 ? 'in-stock' : 'sold-out'}`,
      }),
    );
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(4);
    expect(spotCheck(doc, recipe, replay.data)).toBe(
      '"article.in-stock" matches 4 elements but 30 look-alike siblings exist (items lost?)',
    );
  });

  it('fails when too many matched containers are empty', () => {
    const recipe = learned(cardsPage(page1));
    const doc = page(cardsPage(products(10, 400), { placeholders: 5 }));
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(10);
    expect(replay.warnings[0]).toBe('5 of 15 matched containers read no field and were skipped');
    expect(spotCheck(doc, recipe, replay.data)).toBe(
      '5 of 15 containers matched by "div.grid > article.product-card" read no field',
    );
  });

  it('fails when a required field is missing or mistyped', () => {
    const recipe = learned(cardsPage(page1));
    const doc = page(cardsPage(products(10, 400)));
    const data = applyRecipe(doc, recipe).data as Record<string, unknown>[];
    const withoutName = data.map((item, i) => (i === 3 ? { ...item, name: undefined } : item));
    expect(spotCheck(doc, recipe, withoutName)).toBe('item 4 lacks the required field "name"');
    const mistyped = data.map((item, i) => (i === 2 ? { ...item, price: '12' } : item));
    expect(spotCheck(doc, recipe, mistyped)).toBe('item 3: "price" is "12", not a number');
  });

  it('fails when the data is not what this page reads', () => {
    const recipe = learned(cardsPage(page1));
    const doc = page(cardsPage(products(10, 400)));
    const data = applyRecipe(doc, recipe).data as Record<string, unknown>[];
    const changed = data.map((item, i) => (i === 9 ? { ...item, price: 1 } : item));
    expect(spotCheck(doc, recipe, changed)).toMatch(/^item 10: "price" is 1 but the page reads \d/);
    expect(spotCheck(doc, recipe, data.slice(1))).toBe(
      "the data has 9 items but the page has 10 (not this recipe's replay of this page?)",
    );
  });

  // The sidebar's cards in a grid of their own: the item selector matches them too, and only
  // the heading between them and the items tells them apart (sections.ts).
  const stripInGrid = (html: string) =>
    html
      .replace('<h2>Recommended</h2>', '<h2>Recommended</h2><div class="grid">')
      .replace('</aside>', '</div></aside>');
  /** A heading inside the grid before card `k`: a list grouped by date. */
  const groupedAt = (html: string, k: number) => {
    const at = html
      .split('<article')
      .slice(0, k + 1)
      .join('<article').length;
    return `${html.slice(0, at)}<h2 class="group">Older</h2>${html.slice(at)}`;
  };

  it('fails when a heading outside the cards divides the items, unlike on the learning page', () => {
    const recipe = learned(cardsPage(page1));
    expect(recipe.sectioned).toBeUndefined();
    const doc = page(stripInGrid(cardsPage(products(10, 400))));
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(13);
    expect(spotCheck(doc, recipe, replay.data)).toMatch(
      /^a heading outside the items divides them here, and none did on the learning page/,
    );
    // A list grouped by headings when learned replays grouped.
    const grouped = learned(groupedAt(cardsPage(page1), 20));
    expect(grouped.sectioned).toBe(true);
    const later = page(groupedAt(cardsPage(products(10, 400)), 4));
    expect(spotCheck(later, grouped, applyRecipe(later, grouped).data)).toBeNull();
  });

  it('fails on a recipe that does not validate', () => {
    const recipe = { ...learned(cardsPage(page1)), container: null };
    const doc = page(cardsPage(products(3, 400)));
    expect(spotCheck(doc, recipe, [])).toMatch(/^invalid replay recipe: /);
    expect(applyRecipe(doc, recipe)).toMatchObject({ data: null, items: 0 });
  });
});
