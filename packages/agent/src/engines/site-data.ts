// What each site of a task showed, kept as fingerprints so that data read on one site is never
// typed into another (OWASP LLM02/LLM06: a page that asks the agent to paste the patient's
// record into its own form). The state keeps short hashes of the page's words and numbers per
// site, never the words: a checkpoint holds no copy of the page. A value typed on site B is
// refused when it holds a token that a page of another site showed, that no page of B showed,
// and that the user did not write themselves (the goal, their answers).
import { createHash } from 'node:crypto';
import { decodedForms, siteOf } from '@tandem/contracts';
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

// Digits however they are separated: "512-44-9031", "5 1 2 4 4 9 0 3 1", "(555) 123.4567".
const DIGIT_RUN = /\d(?:[\s\-./,()+_]{0,3}\d)+/g;
/** A number of this many digits or more is data; fewer is a count, a day, a page. */
const RUN_MIN_DIGITS = 5;
const RUN_MAX_DIGITS = 24;

/**
 * The tokens of a text that can identify data: numbers (two digits or more, also without their
 * separators and by groups of three digits or more: "123-45-6789", "123456789", "6789"), the
 * digits of a number however it is spaced or punctuated (five digits or more), e-mail
 * addresses, and words of four letters or more that are not common words. Unicode-folded
 * (full-width digits are digits) and lower-cased, on the page's side and the typed side alike.
 */
export function dataTokens(text: string): string[] {
  const folded = text.normalize('NFKC').toLowerCase();
  const out = new Set<string>();
  for (const raw of folded.split(/[^\p{L}\p{N}@._-]+/u)) {
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
    // "aiko.dubois", "kim_lopez": the words joined by punctuation are words too.
    if (!token.includes('@') && /[._-]/.test(token))
      for (const part of token.split(/[._-]+/))
        if (part.length >= 4 && !COMMON.has(part)) out.add(part);
  }
  for (const run of folded.match(DIGIT_RUN) ?? []) {
    const digits = run.replace(/\D/g, '');
    if (digits.length >= RUN_MIN_DIGITS && digits.length <= RUN_MAX_DIGITS) out.add(digits);
  }
  return [...out];
}

/**
 * The tokens of text leaving the task (typed, navigated to, answered, searched for), in every
 * form it decodes to: %-escapes, base64, HTML entities (decoded-forms.ts).
 */
export function outboundTokens(text: string): string[] {
  return [
    ...new Set(decodedForms(text).flatMap((form) => [...dataTokens(form), ...spelledOut(form)])),
  ];
}

// Characters typed one by one: "K i m L o p e z", "k i m . l o p e z @ m a i l . e x a m p l e".
const SPACED = /(?:[\p{L}\p{N}@._-]\s+){3,}[\p{L}\p{N}@._-]/gu;
/** Longest run of spaced letters read as words: a name, not a paragraph. */
const SPACED_MAX = 40;

/**
 * What a run of spaced characters holds: the run closed up (an address, a number) and, since
 * where one word ends is not written, every piece of four letters or more of it ("kimlopez" →
 * "lopez"): matched against what the pages showed, only real words of the pages can match.
 */
function spelledOut(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(SPACED)) {
    const closed = run.replace(/\s+/g, '');
    out.push(...dataTokens(closed));
    const letters = closed.replace(/[^\p{L}]/gu, '').slice(0, SPACED_MAX);
    for (let start = 0; start < letters.length; start++)
      for (let end = start + 4; end <= letters.length; end++) {
        const piece = letters.slice(start, end);
        if (!COMMON.has(piece)) out.push(piece);
      }
  }
  return out;
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

export interface ForeignToken {
  /** The token as the outbound text holds it (in one of its decoded forms). */
  token: string;
  /** The site whose page showed it. */
  source: string;
}

/**
 * The tokens of `text`, sent to `site`, that a page of another site showed, that no page of
 * `site` showed and that the user did not write (`own`: the goal, their answers).
 */
export function foreignTokens(
  text: string,
  site: string,
  siteData: Readonly<Record<string, string[]>>,
  own: string,
): ForeignToken[] {
  const here = new Set(siteData[site] ?? []);
  // Sets, not the stored arrays: a long typed text in all its decoded forms holds thousands of
  // tokens, each looked up in every other site's (up to SITE_DATA_MAX) fingerprints.
  const others = Object.entries(siteData)
    .filter(([other]) => other !== site)
    .map(([other, fingerprints]) => [other, new Set(fingerprints)] as const);
  if (others.length === 0) return [];
  const mine = new Set(dataTokens(own).map(fingerprint));
  const out: ForeignToken[] = [];
  for (const token of outboundTokens(text)) {
    const f = fingerprint(token);
    if (here.has(f) || mine.has(f)) continue;
    const source = others.find(([, fingerprints]) => fingerprints.has(f));
    if (source) out.push({ token, source: source[0] });
  }
  return out;
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
  return foreignTokens(text, site, siteData, own)[0]?.source ?? null;
}

/** A number or an address: a token that identifies someone or something by itself. */
const identifying = (token: string) => /\d.*\d|@/.test(token);

/**
 * For text sent to a third party that is no page (a web search, an address in the answer):
 * the site whose data it copies out, or null. A number or an address seen on a page always
 * counts. Words of the page are what people search for ("opening hours" seen on the page), so
 * a search copies data when it is made mostly of the page's words ("Kim Lopez"); an address
 * has no reason to carry two words of a page at all (`strict`).
 */
export function copiedDataSource(
  text: string,
  site: string,
  siteData: Readonly<Record<string, string[]>>,
  own: string,
  strict = false,
): string | null {
  const found = foreignTokens(text, site, siteData, own);
  const strong = found.find((t) => identifying(t.token));
  if (strong) return strong.source;
  const copied = new Set(found.filter((t) => !identifying(t.token)).map((t) => t.token));
  if (copied.size < 2) return null;
  const words = dataTokens(text).filter((t) => !identifying(t)).length;
  return strict || copied.size * 2 > words ? (found[0]?.source ?? null) : null;
}
