import { describe, expect, it } from 'vitest';
import { bestElement, scoreBlocks } from './blocks';
import { parse, textOf } from './dom';
import { extractMainContent } from './main-content';
import { preClean } from './pre-clean';

const page = (body: string): string =>
  `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;

/** A link menu that is not marked as navigation (no <nav>, no menu class). */
const linkRow = `<div><ul>${['Home', 'Deals', 'Stores', 'Help', 'Account', 'Gift cards']
  .map((w) => `<li><a href="/${w}">${w}</a></li>`)
  .join('')}</ul></div>`;

const best = (html: string): string => {
  const doc = parse(html);
  preClean(doc, { preserveHidden: true });
  const el = bestElement(scoreBlocks(doc));
  return el ? `${el.name}.${el.attribs.class ?? ''}` : '';
};

describe('block scoring', () => {
  it('picks the list of rich items of a listing over a link menu', () => {
    const items = [1, 2, 3, 4, 5, 6]
      .map(
        (i) =>
          `<div class="card"><a href="/p/${i}">Walnut desk model ${i}</a><span>$${i}99.00</span><span>In stock</span></div>`,
      )
      .join('');
    const html = page(`${linkRow}<div class="grid">${items}</div><p>Short note.</p>`);
    expect(best(html)).toBe('div.grid');
    const out = extractMainContent(html);
    expect(out.text).toContain('Walnut desk model 6');
    expect(out.text).toContain('$699.00');
    expect(out.text).not.toContain('Gift cards');
  });

  it('keeps a product description, price and short spec rows together', () => {
    const html = page(`${linkRow}<div class="product"><h1>Trail Runner 2</h1><p>$129.00</p>
      <p>A light shoe for long runs on rough ground, with a grippy sole.</p>
      <table><tr><th>Weight</th><td>240 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr></table>
      </div>`);
    expect(best(html)).toBe('div.product');
    const out = extractMainContent(html);
    for (const want of ['Trail Runner 2', '$129.00', 'grippy sole', '240 g', '6 mm'])
      expect(out.text).toContain(want);
    expect(out.text).not.toContain('Deals');
  });

  it('keeps every post of a forum thread, even in comment-classed containers', () => {
    const posts = ['alice', 'bob', 'carol', 'dave']
      .map(
        (who) =>
          `<div class="comment"><a href="/u/${who}">${who}</a><p>Reply from ${who}: I had the same crash after the update, and rolling back the driver fixed it for me.</p></div>`,
      )
      .join('');
    const out = extractMainContent(page(`${linkRow}<div class="comments">${posts}</div>`));
    for (const who of ['alice', 'bob', 'carol', 'dave'])
      expect(out.text).toContain(`Reply from ${who}`);
  });

  it('lets no hidden content help a region win, and keeps it inside the winner', () => {
    // A mega menu shown on hover: rich repeated items, and more text than the story.
    const teaser = (n: number) =>
      `<li><a href="/m/${n}">Menu teaser ${n}: the winter collection of boots and coats</a><a href="/m/${n}/all">See all of section ${n}</a></li>`;
    const hiddenMenu = `<ul class="mega" style="display:none">${[1, 2, 3, 4, 5, 6, 7, 8].map(teaser).join('')}</ul>`;
    const story = `<div class="story"><h1>Lake report</h1><p>The lake froze early this year, and the village skated on it for weeks before the thaw came back.</p><p>Fishermen cut holes in the ice and sat for hours, and the children built forts from the snow.</p><div hidden><p>Tab: the full table of ice thickness per week, measured at the pier.</p></div></div>`;
    const html = page(`${hiddenMenu}${story}`);
    expect(best(html)).toBe('div.story');
    const out = extractMainContent(html);
    expect(out.text).toContain('village skated');
    expect(out.text).toContain('ice thickness per week');
    expect(out.text).not.toContain('Menu teaser');
  });

  it('drops the comment section under an article', () => {
    const prose = [1, 2, 3, 4, 5, 6, 7, 8]
      .map(
        (n) =>
          `<p>Paragraph ${n} of the article explains the findings at length, with commas, clauses, and enough words to read as prose to any scorer.</p>`,
      )
      .join('');
    const comments = [1, 2, 3]
      .map(
        (n) =>
          `<li class="comment"><p>Comment ${n}: great post, thanks for writing it up.</p></li>`,
      )
      .join('');
    const out = extractMainContent(
      page(`<article>${prose}</article><section id="comments"><ol>${comments}</ol></section>`),
    );
    expect(out.text).toContain('Paragraph 8 of the article');
    expect(out.text).not.toContain('Comment 2');
  });
});

describe('pre-clean', () => {
  const prose = `<p>The delivery details explain how orders are packed, shipped, and tracked until they arrive at your door.</p>`;

  it('keeps server-rendered <noscript> content and drops small noscript notices', () => {
    const html = page(
      `<noscript>Please enable JavaScript.</noscript><noscript><div>${prose}${prose}${prose}</div></noscript>`,
    );
    const out = extractMainContent(html);
    expect(out.text).toContain('delivery details');
    expect(out.text).not.toContain('enable JavaScript');
  });

  it('drops content hidden by markup only when preserveHidden is false', () => {
    const html = page(
      `<main>${prose}<div style="display: none"><p>Secret tab about returns and refunds within thirty days.</p></div></main>`,
    );
    expect(extractMainContent(html).text).toContain('Secret tab');
    expect(extractMainContent(html, { preserveHidden: false }).text).not.toContain('Secret tab');
  });

  it('keeps one copy of a repeated paragraph (mobile and desktop copies) but short repeats', () => {
    const html = page(
      // A second paragraph makes <main> the region whatever the hidden clone is worth (it is
      // worth nothing: hidden content never helps a region win).
      `<main>${prose}<div hidden>${prose}</div><p>Returns are free within thirty days, and refunds reach your card within a week of the parcel's arrival.</p><ul><li><p>Oak board</p><p>$9.99</p></li><li><p>Ash board</p><p>$9.99</p></li></ul></main>`,
    );
    const out = extractMainContent(html);
    expect(out.text.split('delivery details').length).toBe(2);
    expect(out.text.split('$9.99').length).toBe(3);
  });

  it('drops a cookie notice recognised by its text', () => {
    const html = page(
      `<main>${prose}${prose}</main><div><p>This website uses cookies to give you the best experience.</p><a href="#">Accept</a></div>`,
    );
    const doc = parse(html);
    preClean(doc, { preserveHidden: true });
    expect(textOf(doc)).not.toContain('uses cookies');
  });
});
