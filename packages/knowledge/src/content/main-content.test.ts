import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content';

const chrome = (main: string): string => `<!doctype html><html><head><title>Shop</title>
<script>window.tracking = 'SCRIPT-NOISE';</script><style>.x{color:red}</style></head><body>
<header><a href="/">Home</a><a href="/cart">Cart</a></header>
<nav><ul><li><a href="/a">Menu item alpha</a></li><li><a href="/b">Menu item beta</a></li></ul></nav>
${main}
<div class="cookie-banner">We use cookies to improve your experience, accept all cookies now.</div>
<footer><p>Copyright 2026 Example Shop. All rights reserved. Privacy policy and terms.</p></footer>
</body></html>`;

const paragraph = (n: number): string =>
  `<p>Paragraph ${n} explains the results of the study in detail, with enough words, commas, and sentences to look like real prose to a reader, and to Readability's scoring too.</p>`;

describe('extractMainContent', () => {
  it('keeps an article body and drops scripts, navigation, banners and footers', () => {
    const html = chrome(
      `<article><h1>Study results</h1>${[1, 2, 3, 4, 5].map(paragraph).join('')}</article>`,
    );
    const out = extractMainContent(html, { url: 'https://example.com/post' });
    expect(out.method).toBe('blocks');
    expect(out.markdown).toContain('Paragraph 1 explains');
    expect(out.markdown).toContain('Paragraph 5 explains');
    for (const noise of ['SCRIPT-NOISE', 'Menu item alpha', 'cookies', 'Copyright'])
      expect(out.markdown).not.toContain(noise);
  });

  it('keeps a product page price and specification table', () => {
    const html = chrome(`<main><h1>Trail Runner 2</h1><p class="price">$129.00</p>
      <p>A light shoe for long runs on rough ground.</p>
      <table><tr><th>Weight</th><td>240 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr>
      <tr><th>Upper</th><td>Recycled mesh</td></tr></table>
      <button>Add to cart</button></main>`);
    const out = extractMainContent(html);
    expect(out.markdown).toContain('$129.00');
    expect(out.markdown).toContain('Weight');
    expect(out.markdown).toContain('240 g');
    expect(out.markdown).toContain('Recycled mesh');
    expect(out.markdown).not.toContain('Menu item alpha');
    expect(out.markdown).not.toContain('Copyright');
  });

  it('keeps every item of a listing', () => {
    const items = ['Blue kettle', 'Red toaster', 'Green blender', 'Steel mixer', 'Oak board'];
    const html = chrome(
      `<main><h1>Kitchen</h1><ul>${items
        .map((name, i) => `<li><a href="/p/${i}">${name}</a> <span>$${10 + i}.99</span></li>`)
        .join('')}</ul></main>`,
    );
    const out = extractMainContent(html);
    for (const name of items) expect(out.text).toContain(name);
    expect(out.text).toContain('$14.99');
    expect(out.text).not.toContain('Menu item beta');
  });

  it('keeps content hidden by markup (SPA tabs, the first phase of docs/specs.md, "two-phase SPA ingestion")', () => {
    const html = chrome(
      `<main><h1>Tabs</h1><div hidden><p>Hidden tab with delivery details for orders.</p></div>${paragraph(1)}</main>`,
    );
    expect(extractMainContent(html).text).toContain('Hidden tab with delivery details');
  });

  it('keeps words of adjacent elements apart, but not inside code', () => {
    const html = chrome(
      `<main><h1>Top films</h1><ul>${[1, 2, 3]
        .map((n) => `<li><span>Film ${n}</span><span>199${n}</span><span>2h 0${n}m</span></li>`)
        .join(
          '',
        )}</ul>${paragraph(1)}<pre><code><span>obj</span><span>.</span><span>run</span>()</code></pre></main>`,
    );
    const out = extractMainContent(html);
    expect(out.text).toContain('Film 2 1992 2h 02m');
    expect(out.markdown).toContain('obj.run()');
  });

  it('keeps a layout wrapper whose class only mentions a sidebar', () => {
    const html = chrome(
      `<div class="col content-has-sidebar"><h1>Guide</h1>${[1, 2, 3].map(paragraph).join('')}</div>
      <div class="col content-has-sidebar">${[4, 5, 6].map(paragraph).join('')}</div>`,
    );
    const text = extractMainContent(html).text;
    expect(text).toContain('Paragraph 3 explains');
    expect(text).toContain('Paragraph 6 explains');
  });

  it('on a page that declares itself an article, takes its prose and not the teaser list after it', () => {
    const teasers = [1, 2, 3, 4, 5]
      .map(
        (n) =>
          `<li><a href="/p/${n}">Other story number ${n} of the week</a><span>May ${n}, 2026</span><p>A short teaser for story ${n}, in a few words.</p></li>`,
      )
      .join('');
    const page = (ld: string) =>
      chrome(
        `${ld}<div class="wrap"><div class="story"><h1>Study results</h1>${[1, 2, 3, 4, 5, 6]
          .map(paragraph)
          .join('')}</div><div class="more"><h2>Latest news</h2><ul>${teasers}</ul></div></div>`,
      );
    const article = extractMainContent(
      page(
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Study results"}</script>',
      ),
    ).text;
    expect(article).toContain('Paragraph 3 explains');
    expect(article).not.toContain('Other story number');
    // The same page without the declaration: the teasers are a listing's items, kept with it.
    const other = extractMainContent(page('')).text;
    expect(other).toContain('Paragraph 3 explains');
    expect(other).toContain('Other story number 5');
  });

  describe('on a forum thread', () => {
    // A thread as forum engines write it: posts with their authors' badges between the boxes
    // a forum puts in the column (top posters, popular days), and the reply form after them.
    const post = (
      author: string,
      n: number,
    ) => `<article class="message message--post" id="post-${n}">
      <div class="author"><h3>${author}</h3><ul><li>10 posts</li><li>4 Reputation</li></ul></div>
      <div class="body">${paragraph(n)}</div></article>`;
    const thread = chrome(`<div class="column"><h1>Best closed headphones</h1>
      ${post('ann', 1)}
      <div class="topic-box"><h4>Top posters in this topic</h4><p>paul 12 posts. ann 3 posts. bo 2 posts in the thread today.</p></div>
      ${post('paul', 2)}
      <div class="topic-box"><h4>Popular days</h4><p>Aug 27 2024, 12 posts. Aug 28 2024, 3 posts. Aug 29 2024, 1 post.</p></div>
      ${post('bo', 3)}
      <form class="reply-form"><h2>Create an account or sign in to reply</h2><textarea></textarea><button>Post reply</button></form></div>`);

    it('keeps every post with its author and the title, and nothing between them', () => {
      const out = extractMainContent(thread, { url: 'https://forum.example/threads/closed.123/' });
      for (const kept of ['Best closed headphones', 'ann', 'paul', 'Paragraph 1', 'Paragraph 3'])
        expect(out.markdown).toContain(kept);
      for (const gone of ['Top posters', 'Popular days', 'sign in to reply'])
        expect(out.markdown).not.toContain(gone);
    });

    it('is known by a DiscussionForumPosting declaration too', () => {
      const declared = thread.replace(
        '</head>',
        '<script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head>',
      );
      expect(extractMainContent(declared, { url: 'https://example.com/x' }).markdown).not.toContain(
        'Popular days',
      );
    });

    it("drops each post's signature and author counters, and keeps the author's name", () => {
      const withChrome = (author: string, n: number) => `<article class="message message--post">
        <div class="message-user"><h3 class="message-name">${author}</h3>
        <div class="message-userExtras"><dl><dt>Joined</dt><dd>Feb 8, 2023</dd></dl><dl><dt>Messages</dt><dd>1,204</dd></dl></div></div>
        <div class="postprofile"><dd class="profile-joined"><strong>Joined:</strong> Sun Dec 17, 2023</dd></div>
        <div class="body">${paragraph(n)}</div>
        <aside class="message-signature">My rig: amp, dac and two pairs of headphones, all of them loud.</aside></article>`;
      const html = chrome(
        `<div class="column"><h1>Quiet amps</h1>${withChrome('ann', 1)}${withChrome('paul', 2)}${withChrome('bo', 3)}</div>`,
      );
      const out = extractMainContent(html, { url: 'https://forum.example/threads/amps.9/' });
      for (const kept of ['ann', 'paul', 'bo', 'Paragraph 1', 'Paragraph 3'])
        expect(out.markdown).toContain(kept);
      for (const gone of ['Joined', 'Feb 8, 2023', '1,204', 'My rig'])
        expect(out.markdown).not.toContain(gone);
    });

    it("drops each post's menu of actions, and keeps its author line and date", () => {
      const answer = (author: string, n: number) => `<div class="answer" id="answer-${n}">
        <div class="post-layout">${paragraph(n)}
        <div class="js-post-menu"><a href="/a/${n}">Share</a><a href="/posts/${n}/edit">Improve this answer</a><a href="#">Follow</a></div>
        <div class="user-info">answered Jul 7, 2012 by <a href="/users/${n}">${author}</a></div></div></div>`;
      const html = chrome(
        `<div class="column"><h1>Focus the file pane</h1>${answer('iglvzx', 1)}${answer('mnmnc', 2)}${answer('sgbeal', 3)}</div>`,
      );
      const out = extractMainContent(html, { url: 'https://qa.example/questions/442960/focus' });
      for (const kept of ['iglvzx', 'mnmnc', 'sgbeal', 'answered Jul 7, 2012', 'Paragraph 3'])
        expect(out.markdown).toContain(kept);
      for (const gone of ['Improve this answer', 'Follow'])
        expect(out.markdown).not.toContain(gone);
    });

    it('keeps a box whose class word only starts like a post counter (`status`)', () => {
      const html = chrome(
        `<div class="column"><h1>Status</h1>${[1, 2, 3]
          .map(
            (n) =>
              `<article class="message"><div class="body">${paragraph(n)}</div><div class="post-status">Solved by the original poster</div></article>`,
          )
          .join('')}</div>`,
      );
      const out = extractMainContent(html, { url: 'https://forum.example/threads/s.1/' });
      expect(out.markdown).toContain('Solved by the original poster');
    });

    it('is read as any page elsewhere: the boxes stay', () => {
      const out = extractMainContent(thread, { url: 'https://example.com/headphones' });
      expect(out.markdown).toContain('Popular days');
      expect(out.markdown).toContain('Paragraph 3');
    });
  });

  it('uses a declared articleBody when the article shows no text of its own', () => {
    const body =
      'First paragraph of the story, as the site declares it.\nSecond paragraph, with the ending.';
    const declared = `<script type="application/ld+json">${JSON.stringify({
      '@type': 'NewsArticle',
      articleBody: body,
    })}</script>`;
    const empty = chrome(`<main><h1>Story</h1><div id="app"></div></main>`).replace(
      '</head>',
      `${declared}</head>`,
    );
    const out = extractMainContent(empty);
    expect(out.markdown).toBe(
      'First paragraph of the story, as the site declares it.\n\nSecond paragraph, with the ending.',
    );
    // When the story is on the page, the page's text is kept (with its markup).
    const shown = chrome(
      `<article><h1>Story</h1>${[1, 2, 3].map(paragraph).join('')}</article>`,
    ).replace('</head>', `${declared}</head>`);
    expect(extractMainContent(shown).markdown).toContain('Paragraph 3 explains');
  });

  it('tells the page type from the signals it carries', () => {
    const product = chrome('<main><h1>Mug</h1><p>$12.00</p></main>').replace(
      '</head>',
      '<script type="application/ld+json">{"@type":"Product","name":"Mug"}</script></head>',
    );
    expect(extractMainContent(product).pageType).toBe('product');
    expect(
      extractMainContent(chrome('<main><p>x</p></main>'), {
        url: 'https://forum.example/t/a-topic/12',
      }).pageType,
    ).toBe('forum');
  });

  it('keeps a product sheet and leaves out what the wrapper around it adds', () => {
    // The sheet (title, price, description, specifications) and, beside it in the same
    // wrapper, a block the shop adds under every product (its delivery promises), worth
    // less than the sheet but more than the 15 % other pages leave out.
    const html = chrome(`<div class="page"><div class="sheet"><h1>Trail Runner 2</h1><p>$129.00</p>
      <p>A light shoe for long runs on rough ground, with a grippy sole and a roomy toe box.</p>
      <p>The upper is a recycled mesh that dries fast after a river crossing or a rainy morning.</p>
      <table><tr><th>Weight</th><td>240 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr><tr><th>Upper</th><td>Recycled mesh</td></tr></table></div>
      <div class="promises"><p>Our promise: we ship every order within two days, and returns are free for a whole month after delivery, whatever the reason.</p></div></div>`).replace(
      '</head>',
      '<script type="application/ld+json">{"@type":"Product","name":"Trail Runner 2"}</script></head>',
    );
    const out = extractMainContent(html);
    expect(out.pageType).toBe('product');
    for (const want of ['Trail Runner 2', '$129.00', 'grippy sole', 'river crossing', '240 g'])
      expect(out.text).toContain(want);
    expect(out.text).not.toContain('Our promise');
    // Without the declaration the page is read as any other: the wrapper wins.
    const plain = extractMainContent(html.replace('"@type":"Product"', '"@type":"Thing"'));
    expect(plain.pageType).not.toBe('product');
    expect(plain.text).toContain('Our promise');
  });

  it('keeps code verbatim, in a <pre> without <code> (Sphinx, Pygments) too', () => {
    const code =
      '<span class="k">def</span> <span class="n">create_user</span>(name):\n\n    <span class="k">return</span> <span class="n">save_user</span>(name)\n\n    <span class="k">return</span> <span class="n">save_user</span>(name)';
    const html = chrome(
      `<main><h1>Tasks</h1>${paragraph(1)}<div class="highlight"><pre>${code}</pre></div>${paragraph(2)}<div class="highlight"><pre>${code}</pre></div></main>`,
    );
    const { markdown } = extractMainContent(html);
    const block =
      '```\ndef create_user(name):\n\n    return save_user(name)\n\n    return save_user(name)\n```';
    // Both lines of the code stay, though they repeat; the second, identical block is a
    // clone and goes whole, fences and all.
    expect(markdown).toContain(block);
    expect(markdown.split(block)).toHaveLength(2);
    expect(markdown.match(/```/g)).toHaveLength(2);
    expect(markdown).not.toContain('\\_');
  });
});
