// The per-key admission count on a real HTTP server on loopback, installed the way the server
// installs it (the request hook runs before any route).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorResponse } from '@tandem/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibsqlStore } from '@tandem/store';
import { admittedCount, configureAdmission, keyDigest, setAdmissionLimit } from './admission';
import { rememberKey } from './admission-state';
import { installPeerStamp } from './client-address';
import { claimSlot, DOCUMENT_RUNS } from './tenant-slots';

class HookedServer extends http.Server {}
installPeerStamp(HookedServer.prototype);

let server: HookedServer;
let base: string;
let release: () => void = () => {};
let held = new Promise<void>((resolve) => (release = resolve));
let reached = 0;
let slotStore: Awaited<ReturnType<typeof createLibsqlStore>>;

beforeAll(async () => {
  setAdmissionLimit(8);
  slotStore = await createLibsqlStore({ url: ':memory:' });
  server = new HookedServer((req, res) => {
    reached++;
    if (req.url === '/api/extractions' && req.headers.authorization === 'Bearer key-claims') {
      // A route that claims its tenant's slot at once and answers later, as a run does.
      void claimSlot(slotStore.idempotency, 'tenant-claims', DOCUMENT_RUNS, 2).then((slot) =>
        held.then(async () => {
          await slot.release();
          res.end('{}');
        }),
      );
      return;
    }
    if (req.url === '/api/stacks') {
      // An event stream: its count ends when its answer starts, not when it ends.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      void held.then(() => res.end());
      return;
    }
    void held.then(() => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  release();
  await slotStore.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, key: string) =>
  fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('requests in flight per API key', () => {
  it('lets REQUESTS_IN_FLIGHT_PER_KEY requests of one key in and answers the rest 429 at once', async () => {
    const answers = Array.from({ length: 12 }, () => get('/api/documents', 'key-a'));
    const other = get('/api/documents', 'key-b');
    await expect.poll(() => reached).toBe(9);
    const refused = (await Promise.all(answers.slice(8))) as Response[];
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(ErrorResponse.parse(await answer.json()).error).toEqual({
        code: 'CONCURRENCY_LIMITED',
        message:
          'This API key already has 8 requests in progress, the most it may have at once (REQUESTS_IN_FLIGHT_PER_KEY); send the next when one has been answered.',
      });
    }
    release();
    for (const answer of [...(await Promise.all(answers.slice(0, 8))), await other]) {
      expect(answer.status).toBe(200);
    }
    await expect.poll(admittedCount).toBe(0);
  });

  it('counts an event stream until it starts, and nothing outside /api or without a key', async () => {
    held = new Promise<void>((resolve) => (release = resolve));
    const streams = await Promise.all(
      Array.from({ length: 10 }, () => get('/api/stacks', 'key-s')),
    );
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    expect(admittedCount()).toBe(0);
    const pages = Array.from({ length: 10 }, () => fetch(`${base}/admin`));
    const anonymous = Array.from({ length: 10 }, () => fetch(`${base}/api/health`));
    await expect.poll(admittedCount).toBe(0);
    release();
    for (const answer of await Promise.all([...pages, ...anonymous]))
      expect(answer.status).toBe(200);
    for (const stream of streams) await stream.text();
  });
});

describe('runs of a tenant whose slots this process holds', () => {
  it('are refused before any route, with the route’s own answer, until a slot is free', async () => {
    held = Promise.resolve();
    configureAdmission({
      REQUESTS_IN_FLIGHT_PER_KEY: 8,
      DOCUMENT_RUNS_PER_TENANT: 2,
      INGESTIONS_PER_TENANT: 2,
    });
    const store = await createLibsqlStore({ url: ':memory:' });
    try {
      rememberKey(keyDigest('key-runs'), 'tenant-runs');
      const slots = [
        await claimSlot(store.idempotency, 'tenant-runs', DOCUMENT_RUNS, 2),
        await claimSlot(store.idempotency, 'tenant-runs', DOCUMENT_RUNS, 2),
      ];
      const before = reached;
      const post = (path: string) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { authorization: 'Bearer key-runs' } });
      const refused = await post('/api/extractions');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(ErrorResponse.parse(await refused.json()).error.message).toBe(
        'This account already has 2 document extractions running, the most it may have at once (DOCUMENT_RUNS_PER_TENANT); try again when one is done.',
      );
      // Other routes of the tenant, and uploads (another kind of slot), still reach theirs.
      expect((await post('/api/documents')).status).toBe(200);
      expect(reached).toBe(before + 1);
      await slots[0]?.release();
      expect((await post('/api/extractions')).status).toBe(200);
      await slots[1]?.release();
    } finally {
      await store.close();
    }
  });

  it('lets no more of a burst reach the route than the tenant has slots, before any is claimed', async () => {
    configureAdmission({
      REQUESTS_IN_FLIGHT_PER_KEY: 8,
      DOCUMENT_RUNS_PER_TENANT: 2,
      INGESTIONS_PER_TENANT: 2,
    });
    held = new Promise<void>((resolve) => (release = resolve));
    const before = reached;
    const post = (key: string) =>
      fetch(`${base}/api/extractions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
    // A key the process has never seen: the requests on their way count, not the slots held.
    const burst = Array.from({ length: 6 }, () => post('key-burst'));
    const refused = (await Promise.all(burst.slice(2))) as Response[];
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('10');
      expect(ErrorResponse.parse(await answer.json()).error.code).toBe('CONCURRENCY_LIMITED');
    }
    expect(reached).toBe(before + 2);
    // Another key, and another kind of slot of the same key, are not held back.
    const other = post('key-other');
    const upload = fetch(`${base}/api/documents`, {
      method: 'POST',
      headers: { authorization: 'Bearer key-burst' },
    });
    await expect.poll(() => reached).toBe(before + 4);
    release();
    for (const answer of await Promise.all([...burst.slice(0, 2), other, upload]))
      expect(answer.status).toBe(200);
    // Once answered, they count no more.
    expect((await post('key-burst')).status).toBe(200);
  });

  it('counts a request that has claimed its slot once, as held, not also as on its way', async () => {
    held = new Promise<void>((resolve) => (release = resolve));
    rememberKey(keyDigest('key-claims'), 'tenant-claims');
    const post = () =>
      fetch(`${base}/api/extractions`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-claims' },
      });
    const before = reached;
    const first = post();
    await expect.poll(() => reached).toBe(before + 1);
    // The first run holds its slot and has not answered yet: the second is the tenant's second.
    const second = post();
    await expect.poll(() => reached).toBe(before + 2);
    const third = await post();
    expect(third.status).toBe(429);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });
});
