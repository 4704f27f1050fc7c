// The /extractions page's sign-in and its forwarding routes: the key lives in an httpOnly cookie
// scoped to the page, writes must come from the page's origin, and what comes back is exactly
// what the /api route answers for that key.
import { DocumentList, ErrorResponse, UploadDocumentResponse } from '@tandem/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../../../server/client-address';
import type { Runtime } from '../../../server/runtime';
import { handleUserLogin, handleUserLogout, USER_COOKIE } from '../../../server/user-session';
import { tenantWithKey, testRuntime } from '../../../test/harness';
import { pageProxy } from './page-proxy';

let runtime: Runtime;
let key: string;
beforeEach(async () => {
  runtime = await testRuntime();
  ({ key } = await tenantWithKey(runtime.store));
});
afterEach(() => runtime.store.close());

const ORIGIN = 'http://127.0.0.1:3000';

function login(value: string, origin = ORIGIN, peer = '198.51.100.20') {
  const form = new FormData();
  form.set('key', value);
  return handleUserLogin(
    runtime.store,
    new Request(`${ORIGIN}/extractions/session`, {
      method: 'POST',
      body: form,
      headers: { origin, host: '127.0.0.1:3000', [PEER_HEADER]: peer },
    }),
    { limiter: runtime.authFailures, trustProxyHops: 0 },
  );
}

const proxy = pageProxy((route) => route.withRuntime(runtime));
const call = (path: string[], init: RequestInit & { cookie?: string } = {}) =>
  proxy(
    new Request(`${ORIGIN}/extractions/api/${path.join('/')}`, {
      ...init,
      headers: {
        host: '127.0.0.1:3000',
        ...(init.cookie ? { cookie: `${USER_COOKIE}=${encodeURIComponent(init.cookie)}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    }),
    { params: Promise.resolve({ path }) },
  );

describe('/extractions sign-in', () => {
  it('keeps a known key in an httpOnly cookie scoped to the page; refuses others', async () => {
    const ok = await login(key);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/extractions');
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`${USER_COOKIE}=`);
    expect(cookie).toContain('Path=/extractions');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect((await login('tdm_nope')).headers.get('location')).toBe('/extractions?error=invalid');
    expect((await login(key, 'https://evil.example')).status).toBe(403);
    const out = handleUserLogout(new Request(`${ORIGIN}/extractions/logout`, { method: 'POST' }));
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it('counts unknown keys against the per-address limit the API and /admin share', async () => {
    const peer = '198.51.100.21';
    const locations: (string | null)[] = [];
    for (let n = 0; n < 21; n++)
      locations.push((await login(`tdm_wrong_${n}`, ORIGIN, peer)).headers.get('location'));
    expect(locations.slice(0, 20)).toEqual(Array(20).fill('/extractions?error=invalid'));
    expect(locations[20]).toBe('/extractions?error=locked');
    // Blocked: even the right key waits, with no cookie; another address signs in.
    const blocked = await login(key, ORIGIN, peer);
    expect(blocked.headers.get('location')).toBe('/extractions?error=locked');
    expect(blocked.headers.get('set-cookie')).toBeNull();
    expect((await login(key, ORIGIN, '198.51.100.22')).headers.get('location')).toBe(
      '/extractions',
    );
  });
});

describe('/extractions/api/*', () => {
  it('forwards to the API with the cookie key, and only writes from this origin', async () => {
    const form = new FormData();
    form.set(
      'file',
      new Blob(['Invoice number: INV-1\nTotal: 5'], { type: 'text/plain' }),
      'a.txt',
    );
    const uploaded = await call(['documents'], {
      method: 'POST',
      body: form,
      cookie: key,
      headers: { origin: ORIGIN },
    });
    expect(uploaded.status).toBe(201);
    const { document } = UploadDocumentResponse.parse(await uploaded.json());
    const listed = DocumentList.parse(await (await call(['documents'], { cookie: key })).json());
    expect(listed.documents.map((d) => d.id)).toEqual([document.id]);

    const crossSite = await call(['documents'], {
      method: 'POST',
      body: form,
      cookie: key,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    const anonymous = await call(['documents']);
    expect(anonymous.status).toBe(401);
    expect(ErrorResponse.parse(await anonymous.json()).error.code).toBe('UNAUTHORIZED');
    expect((await call(['tasks'], { cookie: key })).status).toBe(404);
    expect(
      (await call(['extractions', 'x', 'delete'], { method: 'POST', cookie: key })).status,
    ).toBe(404);
    // Without a model the extraction is refused, as the API refuses it.
    const refused = await call(['extractions'], {
      method: 'POST',
      body: JSON.stringify({ documentId: document.id }),
      cookie: key,
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(503);
    // The page's Retry reaches the API's retry route, from this origin only.
    const retry = (origin: string) =>
      call(['extractions', 'some-extraction', 'retry'], {
        method: 'POST',
        cookie: key,
        headers: { origin },
      });
    expect((await retry('https://evil.example')).status).toBe(403);
    const retried = await retry(ORIGIN);
    expect(retried.status).toBe(503);
    expect(ErrorResponse.parse(await retried.json()).error.code).toBe('LLM_NOT_CONFIGURED');
    // Following a run again (after a dropped stream) reaches the API's events route.
    const followed = await call(['extractions', 'some-extraction', 'events'], {
      cookie: key,
      headers: { 'last-event-id': '3' },
    });
    expect(followed.status).toBe(404);
    expect(ErrorResponse.parse(await followed.json()).error.code).toBe('NOT_FOUND');
    expect((await call(['extractions', 'some-extraction', 'events'])).status).toBe(401);
  });
});
