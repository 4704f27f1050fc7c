// What the page is, from what it says of itself in its JSON-LD (`@type`, read before the
// pre-clean drops scripts) and from its address. On data/pages-dev an Article/NewsArticle/
// BlogPosting declaration is right 97 times in 111 (the rest: forums, listings, docs);
// `og:type` = article is right 42 times in 63, not used. A forum thread is known by the
// addresses forum engines give threads, or a DiscussionForumPosting/QAPage declaration: 36 of
// the 50 forum pages, and none of the 356 others.
import { type Document, findAll, textOf } from './dom';

export type PageKind = 'article' | 'forum' | 'other';

/**
 * Thread addresses: Discourse `/t/`, XenForo `/threads/`, IPS `/topic/`, Stack Exchange
 * `/questions/`, Reddit `/comments/`, phpBB `viewtopic.php`, vBulletin `showthread.php`, SMF
 * `?topic=`. Not `/topics/`: documentation and tag pages use it.
 */
const FORUM_URL =
  /\/(?:topic|thread|threads|t|questions|discussion|discussions|forum|forums|comments|community)\/|\/(?:viewtopic|showthread)\.php|[?&]topic=/i;
const FORUM_TYPES = /"@type"\s*:\s*\[?\s*"(?:DiscussionForumPosting|QAPage)"/;

const ARTICLE_TYPES =
  /"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|TechArticle|ScholarlyArticle)"/;

export function pageKind(doc: Document, url = ''): PageKind {
  const declared = findAll(
    doc.children,
    (el) => el.name === 'script' && el.attribs.type === 'application/ld+json',
  ).map((script) => textOf(script));
  if (FORUM_URL.test(url) || declared.some((ld) => FORUM_TYPES.test(ld))) return 'forum';
  return declared.some((ld) => ARTICLE_TYPES.test(ld)) ? 'article' : 'other';
}
