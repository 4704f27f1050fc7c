// Idempotent replay over the real embedded store.
import { InteractRequest, type InteractResponse } from '@tandem/contracts';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayIdempotent } from './idempotent-replay';

let store: Store;
let tenantId: string;

const SESSION = '22222222-2222-4222-8222-222222222222';
const request = (extra: Record<string, unknown> = {}) =>
  InteractRequest.parse({
    url: 'https://a.example/',
    interactiveTree: [{ i: '1', r: 'btn', n: 'Save' }],
    query: 'click Save',
    idempotencyKey: 'key-1',
    ...extra,
  });
const question: InteractResponse = {
  needsUserInput: true,
  message: 'Which one?',
  missingInformation: ['which element'],
  sessionId: SESSION,
  taskId: null,
};

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  tenantId = (await store.tenants.create({ name: 'replay' })).id;
});
afterEach(async () => store.close());

describe('replayIdempotent', () => {
  it('answers once and replays the stored answer for the same key and body', async () => {
    let answered = 0;
    const answer = async () => {
      answered++;
      return question;
    };
    await expect(replayIdempotent(store.idempotency, tenantId, request(), answer)).resolves.toEqual(
      question,
    );
    await expect(replayIdempotent(store.idempotency, tenantId, request(), answer)).resolves.toEqual(
      question,
    );
    expect(answered).toBe(1);
  });

  it('runs every request without a key', async () => {
    let answered = 0;
    const answer = async () => {
      answered++;
      return question;
    };
    const unkeyed = request({ idempotencyKey: undefined });
    await replayIdempotent(store.idempotency, tenantId, unkeyed, answer);
    await replayIdempotent(store.idempotency, tenantId, unkeyed, answer);
    expect(answered).toBe(2);
  });

  it('refuses the same key with another body, and a repeat while the first still runs', async () => {
    await replayIdempotent(store.idempotency, tenantId, request(), async () => question);
    await expect(
      replayIdempotent(
        store.idempotency,
        tenantId,
        request({ query: 'click Cancel' }),
        async () => question,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/different/) });

    let release = (): void => {};
    const slow = replayIdempotent(
      store.idempotency,
      tenantId,
      request({ idempotencyKey: 'k2' }),
      () => new Promise<InteractResponse>((resolve) => (release = () => resolve(question))),
    );
    await expect(
      replayIdempotent(
        store.idempotency,
        tenantId,
        request({ idempotencyKey: 'k2' }),
        async () => question,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/in progress/) });
    release();
    await expect(slow).resolves.toEqual(question);
  });

  it('releases the key when the answer fails, so the client may retry it', async () => {
    const outage = new Error('model down');
    await expect(
      replayIdempotent(store.idempotency, tenantId, request(), async () => {
        throw outage;
      }),
    ).rejects.toBe(outage);
    await expect(
      replayIdempotent(store.idempotency, tenantId, request(), async () => question),
    ).resolves.toEqual(question);
  });

  it('keys are per tenant', async () => {
    const other = (await store.tenants.create({ name: 'other' })).id;
    let answered = 0;
    const answer = async () => {
      answered++;
      return question;
    };
    await replayIdempotent(store.idempotency, tenantId, request(), answer);
    await replayIdempotent(store.idempotency, other, request(), answer);
    expect(answered).toBe(2);
  });
});
