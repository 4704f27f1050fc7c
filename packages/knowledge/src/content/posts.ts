// Forum threads (page kind 'forum', page-kind.ts): the main content is every post. Block
// scoring picks the thread's whole column there (posts, their authors' badges and stats, the
// "top posters" and "popular days" boxes between them, the reply form); the posts themselves
// are marked by their markup on every forum engine of data/pages-dev: an `<article>`, a
// class/id word ending in post, or a word message, comment, reply, entry, answer or question
// (Discourse's `crawler-post`, XenForo's `message--post`, phpBB's `post`, FluxBB's
// `blockpost`, IPS's `ipsEntry--post` in an `<article>`, Stack Exchange's `question` and
// `answer`). Kept: the outermost such elements with prose, and the thread's title
// (bench/content, forum pages: F1 0.700 → 0.724), without each post's signature and author
// counters (0.727 → 0.742) and its menu of actions (0.742 → 0.743).
import { Element } from 'domhandler';
import { findFirst, isTag } from './dom';
import type { Scores } from './blocks';

const POST_WORD =
  /post(?:$|[^a-z])|(?:^|[^a-z])(?:message|comment|reply|entry|answer|question)(?:$|[^a-z])/i;

/** A post holds at least this much text outside links: a line of a quote or a signature does not. */
const MIN_POST_PROSE = 80;
/** The posts found must hold this share of the region's prose, or the markup was not posts. */
const MIN_POSTS_SHARE = 0.3;

const isPost = (el: Element): boolean =>
  el.name === 'article' ||
  POST_WORD.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''} ${el.attribs.itemtype ?? ''}`);

/**
 * What a post carries around its text: the author's signature and the counters under the
 * author's name (joined, posts, likes, location), known by the words of their class or id
 * (`message-signature`, `message-userExtras`, `cAuthorPane_stats`, `profile-joined`), and the
 * post's own menu of actions (`post-menu`: "Improve this answer", "Link to post", "Share").
 * The author's name and the post's date stay: `profile`, `controls`, `rank` also hold them on
 * some engines (bench/content: `profile` took every author's name off a thread). Words are read
 * whole, camelCase split, so `stats` does not match `status` nor `extras` `extrasensory`.
 */
const POST_CHROME = new Set(['signature', 'extras', 'stats', 'joined', 'menu']);

const wordsOf = (el: Element): string[] =>
  `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);

function dropPostChrome(el: Element): void {
  el.children = el.children.filter(
    (child) => !isTag(child) || !wordsOf(child).some((word) => POST_CHROME.has(word)),
  );
  for (const child of el.children) if (isTag(child)) dropPostChrome(child);
}

/** The region's posts (and its title) in an element of their own, or null when it has none. */
export function postsOf(region: Element, scores: Scores): Element | null {
  const prose = (el: Element) => {
    const s = scores.stats.get(el);
    return s ? s.chars - s.links : 0;
  };
  const posts: Element[] = [];
  const visit = (el: Element): void => {
    for (const child of el.children) {
      if (!(child instanceof Element) || (scores.stats.get(child)?.chars ?? 0) === 0) continue;
      if (isPost(child) && prose(child) >= MIN_POST_PROSE) posts.push(child);
      else visit(child);
    }
  };
  visit(region);
  const found = posts.reduce((n, post) => n + prose(post), 0);
  if (posts.length === 0 || found < MIN_POSTS_SHARE * prose(region)) return null;
  for (const post of posts) dropPostChrome(post);
  const title = findFirst([region], (el) => el.name === 'h1');
  const inPost = title && posts.some((post) => findFirst([post], (el) => el === title));
  // A wrapper that only lists them: the posts keep their place in the page's tree.
  return new Element('div', {}, title && !inPost ? [title, ...posts] : posts);
}
