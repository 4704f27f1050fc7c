// robots.txt, fetched once per origin per crawl run and parsed by robots-parser (Google-style
// longest-match Allow/Disallow, wildcards, Sitemap lines). What an unreadable file means follows
// RFC 9309 §2.3.1: 4xx = no rules (crawl everything), 5xx or a network error = assume complete
// disallow, because a site that is failing is the last one to hammer.
import robotsParser from 'robots-parser';
import type { HttpClientOptions } from './http-client';
import { httpGet } from './http-client';

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; we read no more than that. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Absolute sitemap URLs from `Sitemap:` lines. */
  sitemaps(): string[];
}

/** `TandemBot/1.0 (+https://…)` → `TandemBot`: robots.txt groups name the product token. */
export function productToken(userAgent: string): string {
  return userAgent.split(/[/\s]/)[0] ?? userAgent;
}

export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const agent = productToken(userAgent);
  return {
    // undefined means the URL is on another origin than this file: not ours to judge, and the
    // crawler only asks about URLs of the origin it fetched the file from.
    isAllowed: (url) => robots.isAllowed(url, agent) ?? true,
    sitemaps: () => robots.getSitemaps(),
  };
}

const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

/** Robots rules by origin for one crawl run. */
export class RobotsCache {
  readonly #byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly http: HttpClientOptions,
    /** The same SSRF check pages get; robots.txt may redirect (e.g. http → https). */
    private readonly checkHop: (url: string) => Promise<void>,
  ) {}

  rulesFor(url: string): Promise<RobotsRules> {
    const { origin } = new URL(url);
    let rules = this.#byOrigin.get(origin);
    if (!rules) {
      rules = this.#load(origin);
      this.#byOrigin.set(origin, rules);
      // A shutdown abort must not be cached as "unreachable" for a later call in this run.
      rules.catch(() => this.#byOrigin.delete(origin));
    }
    return rules;
  }

  async #load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const agent = this.http.userAgent;
    let text: string;
    try {
      const result = await httpGet(
        robotsUrl,
        { ...this.http, maxBytes: MAX_ROBOTS_BYTES },
        {
          accept: 'text/plain,*/*;q=0.1',
          checkHop: this.checkHop,
          wantBody: (status) => status >= 200 && status < 300,
        },
      );
      if (result.status >= 500) text = DISALLOW_ALL;
      else if (result.status >= 400 || !result.body) text = '';
      else text = new TextDecoder().decode(result.body);
    } catch (error) {
      if (this.http.signal?.aborted) throw error;
      text = DISALLOW_ALL;
    }
    return parseRobots(robotsUrl, text, agent);
  }
}
