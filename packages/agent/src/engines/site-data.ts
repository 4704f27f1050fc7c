// What each site of a task showed, kept as fingerprints so that data read on one site is never
// typed into another (OWASP LLM02/LLM06: a page that asks the agent to paste the patient's
// record into its own form). The state keeps short hashes of the page's words and numbers per
// site, never the words: a checkpoint holds no copy of the page. A value typed on site B is
// refused when it holds a token that a page of another site showed, that no page of B showed,
// and that the user did not write themselves (the goal, their answers).
import { createHash } from 'node:crypto';
import { siteOf } from '@tandem/contracts';
import type { PageState } from '../page/page-state';

/** Fingerprints kept per site: the oldest go first, so a long task's state stays bounded. */
export const SITE_DATA_MAX = 4_000;

// Words too common to say where a value came from.
const COMMON = new Set(
  (
    'about after also been before being both call could date each email first from have here ' +
    'into just last like make more most name next only other over page please phone same save ' +
    'should some such than that their them then there these they this time under very were what ' +
    'when where which will with would your yours submit search click open close back home menu'
  ).split(' '),
);

/**
 * The tokens of a text that can identify data: numbers (two digits or more, also without their
 * separators and by groups of three digits or more: "123-45-6789", "123456789", "6789"), e-mail
 * addresses, and words of four letters or more that are not common words. Lower-cased.
 */
export function dataTokens(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}@._-]+/u)) {
    const token = raw.replace(/^[._-]+|[._-]+$/g, '');
    if (!token) continue;
    const digits = token.replace(/\D/g, '');
    if (digits.length >= 2) {
      out.add(token);
      if (/^[\d._-]+$/.test(token)) {
        // The same number written another way: "123-45-6789", "123456789", "123 45 6789".
        out.add(digits);
        for (const group of token.split(/[._-]/)) if (group.length >= 3) out.add(group);
      }
      continue;
    }
    if (token.includes('@') || (token.length >= 4 && !COMMON.has(token))) out.add(token);
  }
  return [...out];
}

const fingerprint = (token: string): string =>
  createHash('sha256').update(token).digest('base64url').slice(0, 10);

/** Everything a page showed the agent: its elements, the snapshot it read, its messages. */
export function pageText(page: PageState): string {
  return [
    page.title,
    ...page.tree.flatMap((n) => [n.n ?? '', n.v ?? '']),
    page.snapshot?.text ?? '',
    page.html ?? '',
    ...page.errors,
    ...page.successMessages,
  ].join('\n');
}

/**
 * The map with this page's fingerprints added under its site; `siteData` itself when none are
 * new, so a step that showed nothing new writes nothing more into its checkpoint.
 */
export function withPageData(
  siteData: Readonly<Record<string, string[]>>,
  page: PageState,
): Readonly<Record<string, string[]>> {
  const site = siteOf(page.url);
  if (!site) return siteData;
  const known = siteData[site] ?? [];
  const seen = new Set(known);
  const added = dataTokens(pageText(page))
    .map(fingerprint)
    .filter((f) => !seen.has(f) && (seen.add(f), true));
  if (added.length === 0) return siteData;
  const all = [...known, ...added];
  return { ...siteData, [site]: all.slice(Math.max(0, all.length - SITE_DATA_MAX)) };
}

/**
 * The other site whose data `text`, typed on `site`, carries; null when it carries none. `own`
 * is what the user wrote (goal, answers): their words may go anywhere.
 */
export function foreignDataSource(
  text: string,
  site: string,
  siteData: Readonly<Record<string, string[]>>,
  own: string,
): string | null {
  const here = new Set(siteData[site] ?? []);
  const mine = new Set(dataTokens(own).map(fingerprint));
  const others = Object.entries(siteData).filter(([other]) => other !== site);
  if (others.length === 0) return null;
  for (const token of dataTokens(text)) {
    const f = fingerprint(token);
    if (here.has(f) || mine.has(f)) continue;
    const source = others.find(([, fingerprints]) => fingerprints.includes(f));
    if (source) return source[0];
  }
  return null;
}
