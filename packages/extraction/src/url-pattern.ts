// URL globs for strategies (`find_matching` by URL glob, docs/specs.md, "the strategy cache"). `*`
// matches within one path segment, `**` across segments. Written here rather than taken from
// picomatch/minimatch: those match file paths and normalise `//` and `?`, which a URL is full of.

/**
 * A segment that is an id or a page number (/products/123, /page/2, /p/3f9a0c1e, /chair-1234):
 * any value there is a page of the same kind. A name with a digit in it (/katalog2, /v2) is not
 * one: /orders3/list is another section than /katalog2/list, so it stays literal.
 */
function isIdSegment(segment: string): boolean {
  return (
    /^\d+$/.test(segment) ||
    (/^[\da-f-]{8,}$/i.test(segment) && /\d/.test(segment)) ||
    /^[\w.-]+[-_]\d+$/.test(segment)
  );
}

/** The glob a strategy learned on `url` applies to: same origin and path shape, any query. */
export function urlPatternFor(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname
    .split('/')
    .map((segment) => (isIdSegment(segment) ? '*' : segment))
    .join('/');
  return `${parsed.origin}${path}*`;
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

export const matchesUrl = (glob: string, url: string): boolean => globToRegExp(glob).test(url);
