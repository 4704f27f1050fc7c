// Cheerio pre-clean before Readability and the fallback. Hidden content is kept on purpose:
// spec 003 (Smart Ingestion, SPA phase 1) warns that SPA pages hide real content behind
// tabs and accordions, so only markup that is never content goes here.
import * as cheerio from 'cheerio';

/** Elements that never carry main content. */
const NEVER_CONTENT = 'script, style, noscript, template, svg, iframe, canvas, link, meta';

/** Site chrome: navigation, headers/footers, dialogs and consent banners. */
const CHROME =
  'nav, footer, [role="navigation"], [role="contentinfo"], [role="banner"], [role="dialog"], [aria-modal="true"], dialog';

/** Class/id words of boilerplate blocks (cookie banners, share bars, newsletter boxes). */
const BOILERPLATE =
  /(^|[\s_-])(cookie|consent|gdpr|newsletter|subscribe|share|sharing|social|breadcrumbs?|skip-link|popup|modal|advert|ads?|sponsor|promo|related|recommend)([\s_-]|$)/i;

export function preClean(html: string): string {
  const $ = cheerio.load(html);
  $(NEVER_CONTENT).remove();
  // Readability drops hidden nodes; tabs and accordions of SPA pages are hidden until opened.
  $('[hidden]').removeAttr('hidden');
  $('[aria-hidden]').removeAttr('aria-hidden');
  $(CHROME).remove();
  $('body *').each((_i, el) => {
    const attrs = (el as { attribs?: Record<string, string> }).attribs ?? {};
    const words = `${attrs.class ?? ''} ${attrs.id ?? ''}`;
    if (words.trim() && BOILERPLATE.test(words)) $(el).remove();
  });
  // A <header> inside <body> outside any <article> is the site header, not the page's.
  $('body header').each((_i, el) => {
    if ($(el).closest('article, main').length === 0) $(el).remove();
  });
  return $.html();
}
