// What the page says it is in its JSON-LD (`@type`), read before the pre-clean drops scripts.
// On data/pages-dev an Article/NewsArticle/BlogPosting declaration is right 97 times in 111
// (the rest: forums, listings, docs); `og:type` = article is right 42 times in 63, not used.
import { type Document, findAll, textOf } from './dom';

export type PageKind = 'article' | 'other';

const ARTICLE_TYPES =
  /"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|TechArticle|ScholarlyArticle)"/;

export function pageKind(doc: Document): PageKind {
  const scripts = findAll(
    doc.children,
    (el) => el.name === 'script' && el.attribs.type === 'application/ld+json',
  );
  for (const script of scripts) if (ARTICLE_TYPES.test(textOf(script))) return 'article';
  return 'other';
}
