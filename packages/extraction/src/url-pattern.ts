// URL globs for strategies (`find_matching` by URL glob, docs/specs.md, "the strategy cache"). `*`
// matches within one path segment, `**` anything (across segments). Written here rather than
// taken from picomatch/minimatch: those match file paths and normalise `//` and `?`, which a URL
// is full of.

/**
 * What a learned pattern ends with: any query, or none (matchesUrl gives a URL without one a
 * bare `?`). Only the query: a bare trailing `*`, as older patterns have, also let /shop/list
 * match /shop/listing and /page/1 match /page/17 without any page showing they share a recipe.
 */
const ANY_QUERY = '?**';

/**
 * The glob a strategy learned on `url` applies to: its origin and its own path, any query
 * (`?page=2` is the same listing). Strict, with no prior about which segments are ids: one URL
 * cannot tell /products/123 (an id) from /katalog2 (a section), and a wrong guess replays
 * another section's pages with this one's selectors, where only the entity check stands in the
 * way. A segment becomes `*` only once a page that differs there was shown to share the recipe
 * (widenedPattern). The price is one model read of the second value of an id segment (page 2
 * of /page/1, /page/2 …), after which the pattern covers them all; a site that pages by query
 * string, as most listings and the demo catalogue do, loses nothing.
 */
export function urlPatternFor(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${ANY_QUERY}`;
}

/** The pattern's path segments, when it is origin + path + a query wildcard (ANY_QUERY or `*`). */
function patternSegments(pattern: string, origin: string): string[] | null {
  if (!pattern.startsWith(`${origin}/`)) return null;
  const rest = pattern.slice(origin.length);
  const path = rest.endsWith(ANY_QUERY)
    ? rest.slice(0, -ANY_QUERY.length)
    : rest.endsWith('*') && !rest.endsWith('**')
      ? rest.slice(0, -1)
      : null;
  // `**` inside the path (an older id guess) has no segment to widen: left as it is.
  if (path === null || path.includes('**')) return null;
  return path.split('/');
}

/**
 * `pattern` with `*` at exactly the path segments where `url` differs from it, when `url` has
 * the same origin and path shape (as many segments); null otherwise. The caller widens a
 * strategy to it only on evidence: the strategy's recipe replayed on `url` with its evidence
 * holding and read what the model read there. An older pattern comes back in the current form.
 */
export function widenedPattern(pattern: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = patternSegments(pattern, parsed.origin);
  const page = parsed.pathname.split('/');
  if (!segments || segments.length !== page.length) return null;
  const widened = segments.map((segment, i) => {
    const seen = page[i] as string;
    return segment === seen || globToRegExp(segment).test(seen) ? segment : '*';
  });
  return `${parsed.origin}${widened.join('/')}${ANY_QUERY}`;
}

const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  const cached = cache.get(glob);
  if (cached) return cached;
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  if (cache.size > 1_000) cache.clear();
  cache.set(glob, regex);
  return regex;
}

/**
 * The URL as patterns see it: without its fragment (the same page), and with a bare `?` when it
 * has no query, so that ANY_QUERY matches it. Older patterns end in `*`, which takes the `?` too.
 */
function matchable(url: string): string {
  const hash = url.indexOf('#');
  const page = hash < 0 ? url : url.slice(0, hash);
  return page.includes('?') ? page : `${page}?`;
}

export const matchesUrl = (glob: string, url: string): boolean =>
  globToRegExp(glob).test(matchable(url));
