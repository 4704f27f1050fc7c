// SSRF guard: a tenant-supplied URL must not make our server fetch its own loopback, the
// cloud metadata endpoint (169.254.169.254) or anything else on a private network. The check
// resolves the host and refuses if ANY address is not public unicast, because the HTTP client
// may connect to any of them. The crawler repeats it on every redirect hop: a public page that
// redirects to http://127.0.0.1/ is the classic way round a start-URL-only check.
//
// Residual risk, accepted at our scale: DNS rebinding between this lookup and the connection.
// Closing it needs the resolved address pinned into the connection (a custom undici dispatcher);
// the hop checks plus short timeouts bound the damage meanwhile.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { isDomainAllowed, normaliseUrl } from './urls';

/** The URL may not be crawled; thrown before a job starts so a route can answer 400. */
export class CrawlRefusedError extends Error {
  override readonly name = 'CrawlRefusedError';
}

export interface CrawlUrlPolicy {
  /** Default false: refuse hosts that resolve to loopback, private or link-local addresses. */
  allowPrivateNetwork?: boolean;
  /** The tenant's allowed_domains; empty/absent = any. A domain covers its subdomains. */
  allowedDomains?: string[];
}

/**
 * Only ipaddr.js's 'unicast' range is the public internet. Everything else it names is
 * refused: loopback, private (RFC 1918), linkLocal (169.254/16, fe80::/10), uniqueLocal
 * (fc00::/7), carrierGradeNat, unspecified, broadcast, multicast, reserved (TEST-NETs…), and
 * the IPv6 transition ranges that can embed a private IPv4 (6to4, teredo, rfc6052, rfc6145).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as IPv4.
  return ipaddr.process(address).range() === 'unicast';
}

async function addressesOf(hostname: string): Promise<string[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) return [bare];
  try {
    const results = await lookup(bare, { all: true, verbatim: true });
    return results.map((result) => result.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new CrawlRefusedError(`Cannot resolve ${bare} (${code}).`);
  }
}

/** Throws CrawlRefusedError when `url` may not be fetched under `policy`. */
export async function checkCrawlUrl(url: string, policy: CrawlUrlPolicy = {}): Promise<void> {
  const normalised = normaliseUrl(url);
  if (!normalised) throw new CrawlRefusedError(`Only http(s) URLs can be crawled: ${url}`);
  const { hostname } = new URL(normalised);
  if (!isDomainAllowed(hostname, policy.allowedDomains)) {
    throw new CrawlRefusedError(`${hostname} is not in the allowed domains.`);
  }
  if (policy.allowPrivateNetwork) return;
  const addresses = await addressesOf(hostname);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined || addresses.length === 0) {
    throw new CrawlRefusedError(
      `${hostname} resolves to a private or reserved address (${refused ?? 'none'}), and this ` +
        'server crawls only public addresses. To crawl sites on this machine or your network, ' +
        'start the server with KNOWLEDGE_ALLOW_PRIVATE_URLS=true.',
    );
  }
}
