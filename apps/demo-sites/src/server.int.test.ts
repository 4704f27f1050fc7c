// The HTTP surface without a browser: static files, refusals, and the JSON API.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { resetState } from './test/browser';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends the path exactly as written; fetch() would normalise `/../x` before sending. */
function raw(sites: DemoSites, path: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: sites.port, path, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

let sites: DemoSites;

beforeAll(async () => {
  sites = await startDemoSites();
});
afterAll(async () => {
  await sites.close();
});
beforeEach(async () => {
  await resetState(sites.url);
});

const postJson = (path: string, body: unknown) =>
  fetch(`${sites.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('startDemoSites', () => {
  it('listens on a free loopback port and reports its origin', () => {
    expect(sites.port).toBeGreaterThan(0);
    expect(sites.url).toBe(`http://127.0.0.1:${sites.port}`);
  });

  it('keeps state per instance and frees its port on close', async () => {
    const other = await startDemoSites({ saveDelayMs: 0 });
    const saved = await fetch(`${other.url}${DEMO_API.patients}`, {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Only', lastName: 'Here' }),
    });
    expect(saved.status).toBe(201);
    const mine = (await (await fetch(`${sites.url}${DEMO_API.patients}`)).json()) as {
      patients: { firstName: string }[];
    };
    expect(mine.patients.map((p) => p.firstName)).not.toContain('Only');
    await other.close();
    await expect(fetch(`${other.url}/`)).rejects.toThrow();
    const again = await startDemoSites({ port: other.port });
    expect(again.port).toBe(other.port);
    await again.close();
  });
});

describe('static files', () => {
  it.each([
    ['/', 'text/html; charset=utf-8', '<title>Tandem demo sites</title>'],
    ['/styles.css', 'text/css; charset=utf-8', ':root'],
    ['/emr/emr.js', 'text/javascript; charset=utf-8', 'ROUTES'],
    ['/iframe/widget.html', 'text/html; charset=utf-8', 'Say hello'],
  ])('serves %s as %s', async (path, type, snippet) => {
    const response = await fetch(`${sites.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain(snippet);
  });

  it('answers HEAD with headers and no body', async () => {
    const response = await raw(sites, '/styles.css', 'HEAD');
    expect(response.status).toBe(200);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(100);
    expect(response.body).toBe('');
  });

  it('redirects a directory without its slash so relative links resolve', async () => {
    const response = await raw(sites, '/form?x=1');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('/form/?x=1');
  });

  it('serves the EMR shell for its client routes, but not for missing assets', async () => {
    for (const path of [DEMO_PAGES.emrNewSearch, DEMO_PAGES.emrRecent, '/emr/anything']) {
      const response = await fetch(`${sites.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<title>Tandem Health EMR</title>');
    }
    expect((await fetch(`${sites.url}/emr/missing.js`)).status).toBe(404);
  });

  it('answers unknown paths with a 404 page that links home', async () => {
    const response = await fetch(`${sites.url}/no/such/page`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('Page not found');
    expect(html).toContain('<a href="/">');
    expect(html).toContain('<code>/no/such/page</code>');
  });

  it('escapes the requested path on the 404 page', async () => {
    const response = await raw(sites, '/%3Cscript%3Ealert(1)%3C/script%3E');
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('<script>');
  });

  it.each([
    '/../package.json',
    '/../../package.json',
    '/emr/../../package.json',
    '/%2e%2e/package.json',
    '/%2E%2E%2Fpackage.json',
    '/emr/..%2f..%2fpackage.json',
    '/..%5cpackage.json',
    '/%2e%2e/src/server.ts',
    '/%00.html',
    '/%E0%A4%A',
  ])('refuses %s with 400 and leaks nothing', async (path) => {
    const response = await raw(sites, path);
    expect(response.status).toBe(400);
    expect(response.body).not.toContain('@tandem/demo-sites');
    expect(response.body).not.toContain('startDemoSites');
  });

  it('does not serve files outside public/ or dotfiles, even by their plain path', async () => {
    for (const path of ['/package.json', '/src/server.ts', '/.gitignore', '/emr/.hidden']) {
      expect((await raw(sites, path)).status, path).toBe(404);
    }
  });

  it('allows only GET and HEAD on static paths', async () => {
    const response = await raw(sites, '/form/', 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});

describe('patients API', () => {
  interface PatientsBody {
    patients: { id: string; firstName: string; lastName: string; dateOfBirth: string }[];
  }

  it('lists the three seed patients and filters by ?q=', async () => {
    const all = (await (await fetch(`${sites.url}${DEMO_API.patients}`)).json()) as PatientsBody;
    expect(all.patients.map((p) => p.id)).toEqual(['P-1001', 'P-1002', 'P-1003']);
    const found = (await (
      await fetch(`${sites.url}${DEMO_API.patients}?q=smi`)
    ).json()) as PatientsBody;
    expect(found.patients.map((p) => `${p.firstName} ${p.lastName}`)).toEqual(['John Smith']);
  });

  it('saves a patient after the configured delay, and reset forgets it', async () => {
    const started = performance.now();
    const response = await postJson(DEMO_API.patients, {
      firstName: 'Jas',
      lastName: 'Patel',
      dateOfBirth: '01/02/1985',
      sex: 'male',
      phone: '555-0100',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(650);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      patient: {
        id: 'P-1004',
        firstName: 'Jas',
        lastName: 'Patel',
        dateOfBirth: '1985-01-02',
        sex: 'male',
        phone: '555-0100',
      },
    });
    const list = (await (await fetch(`${sites.url}${DEMO_API.patients}`)).json()) as PatientsBody;
    expect(list.patients.at(-1)?.firstName).toBe('Jas');

    await resetState(sites.url);
    const after = (await (await fetch(`${sites.url}${DEMO_API.patients}`)).json()) as PatientsBody;
    expect(after.patients).toHaveLength(3);
  });

  it('refuses an invalid patient with field errors', async () => {
    const response = await postJson(DEMO_API.patients, {
      firstName: '',
      dateOfBirth: '99/99/1990',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { code: string; fields: Record<string, string> };
    };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.error.fields).sort()).toEqual(['dateOfBirth', 'firstName', 'lastName']);
  });

  it('refuses malformed and oversized bodies', async () => {
    expect((await postJson(DEMO_API.patients, '{nope')).status).toBe(400);
    const huge = JSON.stringify({ firstName: 'x'.repeat(70_000), lastName: 'y' });
    expect((await postJson(DEMO_API.patients, huge)).status).toBe(413);
  });

  it('answers unknown API paths and wrong methods with JSON errors', async () => {
    const missing = await fetch(`${sites.url}/api/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const wrong = await fetch(`${sites.url}${DEMO_API.patients}`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect((await fetch(`${sites.url}${DEMO_API.reset}`)).status).toBe(405);
  });
});

describe('click and form APIs', () => {
  it('records re-render clicks in order', async () => {
    expect((await postJson(DEMO_API.rerenderClicks, { itemId: 'INV-1002' })).status).toBe(201);
    expect((await postJson(DEMO_API.rerenderClicks, { itemId: 'INV-1004' })).status).toBe(201);
    expect((await postJson(DEMO_API.rerenderClicks, { itemId: '' })).status).toBe(400);
    const body = await (await fetch(`${sites.url}${DEMO_API.rerenderClicks}`)).json();
    expect(body).toEqual({
      clicks: [
        { itemId: 'INV-1002', sequence: 1 },
        { itemId: 'INV-1004', sequence: 2 },
      ],
      total: 2,
    });
  });

  it('records form submissions and refuses odd values', async () => {
    const values = { fullName: 'Jas Patel', reminders: true, tags: ['a', 'b'] };
    expect((await postJson(DEMO_API.formSubmissions, values)).status).toBe(201);
    expect((await postJson(DEMO_API.formSubmissions, { nested: { a: 1 } })).status).toBe(400);
    expect((await postJson(DEMO_API.formSubmissions, {})).status).toBe(400);
    const body = await (await fetch(`${sites.url}${DEMO_API.formSubmissions}`)).json();
    expect(body).toEqual({ submissions: [{ sequence: 1, values }] });
  });
});
