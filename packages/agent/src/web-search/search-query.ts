// The text side of a managed search: the heuristic query refinement and the page's domain.

const STOPWORDS = new Set(
  (
    'a an the of to in on for and or with by at from as is are was were be been being do does did ' +
    'what whats which who whom whose when where why how can could should would will shall may might ' +
    'must i me my we our you your it its this that these those there here please find search look ' +
    'up tell show get give about into out over than then so if not no yes any some all'
  ).split(' '),
);

/** Queries that differ only in case and spacing are the same search. */
export const normalizeQuery = (text: string): string =>
  text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The heuristic refinement: first drop question words and punctuation (search engines match
 * keywords), then drop the last keyword (usually the narrowest qualifier), keeping at least two.
 */
export function simplifyQuery(query: string): string {
  const words = query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s.@/-]+/gu, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^[.\-/]+|[.\-/]+$/g, ''))
    .filter((word) => word !== '');
  const keywords = words.filter((word) => !STOPWORDS.has(word));
  if (keywords.length === 0) return query.trim();
  const simplified = keywords.join(' ');
  if (simplified !== normalizeQuery(query)) return simplified;
  return keywords.length > 2 ? keywords.slice(0, -1).join(' ') : simplified;
}

/**
 * The page's host without "www.", or null when a domain filter makes no sense (localhost, IP
 * addresses, intranet names, non-web URLs): those are never in a search index.
 */
export function domainOf(url: string): string | null {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    host = parsed.hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host)) return null;
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return null;
  return host.startsWith('www.') ? host.slice(4) : host;
}
