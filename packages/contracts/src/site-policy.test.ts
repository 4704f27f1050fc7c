import { describe, expect, it } from 'vitest';
import { isSiteAllowed, parseSite, siteOf, siteRefusal, taskSites, TaskSites } from './site-policy';

describe('sites', () => {
  it('a site is the exact host with its port when not the default', () => {
    expect(siteOf('http://127.0.0.1:4000/emr/?a=1')).toBe('127.0.0.1:4000');
    expect(siteOf('https://App.Example.com:443/x')).toBe('app.example.com');
    expect(siteOf('javascript:alert(1)')).toBeNull();
    expect(siteOf('chrome://settings')).toBeNull();
    expect(siteOf(undefined)).toBeNull();
  });

  it('parses what a user types: a host, or any URL of the site', () => {
    expect(parseSite(' partner.example.org ')).toBe('partner.example.org');
    expect(parseSite('http://localhost:4000/inject/survey.html')).toBe('localhost:4000');
    expect(parseSite('not a site')).toBeNull();
    expect(parseSite('')).toBeNull();
  });

  it('a task allows its start site and the added ones, nothing else', () => {
    const sites = taskSites('http://127.0.0.1:4000/emr/', ['localhost:4000']);
    expect(sites).toEqual(['127.0.0.1:4000', 'localhost:4000']);
    expect(isSiteAllowed('http://127.0.0.1:4000/jobs/', sites)).toBe(true);
    expect(isSiteAllowed('http://localhost:4000/x', sites)).toBe(true);
    // Another port, a subdomain, another scheme family are other sites.
    expect(isSiteAllowed('http://127.0.0.1:4001/', sites)).toBe(false);
    expect(isSiteAllowed('http://evil.localhost:4000/', sites)).toBe(false);
    expect(isSiteAllowed('data:text/html,hi', sites)).toBe(false);
    expect(siteRefusal('http://evil.example/collect?x=1', sites)).toBe(
      "evil.example is not one of this task's sites (127.0.0.1:4000, localhost:4000); the user can add it when starting the task",
    );
    expect(siteRefusal('http://127.0.0.1:4000/', sites)).toBeNull();
  });

  it('caps the sites one request may add', () => {
    expect(TaskSites.safeParse(Array.from({ length: 21 }, (_, i) => `s${i}.example`)).success).toBe(
      false,
    );
    expect(TaskSites.safeParse(['UPPER.example.COM']).data).toEqual(['upper.example.com']);
    expect(TaskSites.safeParse(['http://x']).success).toBe(false);
  });
});

describe('addresses inside an allowed address', () => {
  const sites = ['shop.example.com'];
  it("refuses the site's own redirector sending the browser elsewhere", () => {
    const url = `https://shop.example.com/r?u=${encodeURIComponent('https://evil.example.net/login')}`;
    expect(siteRefusal(url, sites)).toBe(
      "the address carries another one, on evil.example.net, which is not one of this task's sites (shop.example.com): the page would send the browser there",
    );
  });
  it('lets an address carry one of the same site', () => {
    const url = `https://shop.example.com/login?next=${encodeURIComponent('https://shop.example.com/cart')}`;
    expect(siteRefusal(url, sites)).toBeNull();
  });
});
