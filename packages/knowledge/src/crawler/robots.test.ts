import { describe, expect, it } from 'vitest';
import { parseRobots, productToken } from './robots';

const UA = 'TandemBot/1.0 (+https://tandem.dev/bot)';
const ROBOTS_URL = 'https://docs.example.com/robots.txt';

describe('productToken', () => {
  it('is the name before the version', () => {
    expect(productToken(UA)).toBe('TandemBot');
    expect(productToken('curl')).toBe('curl');
  });
});

describe('parseRobots', () => {
  it('applies the group for everyone when none names us', () => {
    const rules = parseRobots(
      ROBOTS_URL,
      'User-agent: *\nDisallow: /docs/internal/\nAllow: /\n\nSitemap: https://docs.example.com/sitemap.xml\n',
      UA,
    );
    expect(rules.isAllowed('https://docs.example.com/docs/webhooks.html')).toBe(true);
    expect(rules.isAllowed('https://docs.example.com/docs/internal/runbook.html')).toBe(false);
    expect(rules.sitemaps()).toEqual(['https://docs.example.com/sitemap.xml']);
  });

  it('prefers the group that names our product token, case-insensitively', () => {
    const rules = parseRobots(
      ROBOTS_URL,
      'User-agent: *\nDisallow: /\n\nUser-agent: tandembot\nDisallow: /private\n',
      UA,
    );
    expect(rules.isAllowed('https://docs.example.com/docs/')).toBe(true);
    expect(rules.isAllowed('https://docs.example.com/private/x')).toBe(false);
  });

  it('uses the longest match, so a specific Allow beats a broad Disallow', () => {
    const rules = parseRobots(
      ROBOTS_URL,
      'User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nDisallow: /*.pdf$\n',
      UA,
    );
    expect(rules.isAllowed('https://docs.example.com/docs/public/a.html')).toBe(true);
    expect(rules.isAllowed('https://docs.example.com/docs/secret.html')).toBe(false);
    expect(rules.isAllowed('https://docs.example.com/manual.pdf')).toBe(false);
  });

  it('allows everything when the file is empty (404) and nothing when it disallows all', () => {
    expect(parseRobots(ROBOTS_URL, '', UA).isAllowed('https://docs.example.com/a')).toBe(true);
    const closed = parseRobots(ROBOTS_URL, 'User-agent: *\nDisallow: /\n', UA);
    expect(closed.isAllowed('https://docs.example.com/')).toBe(false);
  });
});
