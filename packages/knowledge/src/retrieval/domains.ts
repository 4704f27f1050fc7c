// Which knowledge a page may read (`allowed_domains`, docs/specs.md, "RAG once per request").
// Knowledge is stored per site ('' = tenant-wide); a site's knowledge also applies to its
// subdomains (knowledge about example.com is about app.example.com too), never the other way round.
// A tenant may restrict site knowledge to a list of allowed domains; tenant-wide knowledge always
// applies.

/**
 * The knowledge domains that apply to a page: '' (tenant-wide), the host, and each parent
 * domain down to two labels. "www." is treated as the bare site in both directions, since sites
 * serve the same pages under both. An unparseable URL gets tenant-wide knowledge only.
 */
export function pageDomains(url: string): string[] {
  const host = hostOfUrl(url);
  if (host === null) return [''];
  const domains = new Set<string>(['', host]);
  if (!isIpHost(host)) {
    const labels = host.split('.');
    for (let i = 1; i <= labels.length - 2; i++) domains.add(labels.slice(i).join('.'));
    if (!host.startsWith('www.') && labels.length >= 2) domains.add(`www.${host}`);
  }
  return [...domains];
}

/** Lower-case host without a trailing dot, or null when the URL has none. */
export function hostOfUrl(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

const isIpHost = (host: string): boolean => host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host);

/** Whether `host` is `domain` or one of its subdomains ("www." counts as the bare site). */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const bare = (d: string) =>
    d
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
  const h = bare(host);
  const d = bare(domain);
  return d !== '' && (h === d || h.endsWith(`.${d}`));
}

/** Whether a tenant's allowed domains let `host` be used or crawled; an empty list allows all. */
export function isHostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  return allowedDomains.length === 0 || allowedDomains.some((d) => hostMatchesDomain(host, d));
}

/** The domains a page reads after the tenant's allowed domains: tenant-wide only when refused. */
export function readableDomains(url: string, allowedDomains: readonly string[]): string[] {
  const host = hostOfUrl(url);
  if (host === null || !isHostAllowed(host, allowedDomains)) return [''];
  return pageDomains(url);
}
