// The skills library over the real store (libSQL in memory): lessons are kept per tenant and
// site, found for similar goals only, ranked by success and recency, and capped by the store.
import { createLibsqlStore, type Store } from '@tandem/store';
import { beforeEach, describe, expect, it } from 'vitest';
import { SkillsService } from './skills-service';

let store: Store;
let now = new Date('2026-11-01T12:00:00.000Z');
const service = () => new SkillsService(store, { now: () => now });

const lesson = (overrides: Partial<Parameters<SkillsService['learn']>[0]> = {}) => ({
  tenantId: 't1',
  url: 'https://emr.example/patients/',
  goal: 'Add a new patient named Jas Patel',
  failed: {
    action: 'click("68")',
    elementDescription: 'clicking “Patients”',
    errorType: 'VERIFICATION_FAILED',
  },
  succeeded: {
    action: 'click("79")',
    elementDescription: 'clicking “New/Search”',
    strategy: 'ALTERNATIVE_SELECTOR',
  },
  ...overrides,
});

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  now = new Date('2026-11-01T12:00:00.000Z');
});

describe('SkillsService', () => {
  it('keeps a lesson and shows it for a similar goal on the same site', async () => {
    const skill = await service().learn(lesson());
    expect(skill).toMatchObject({ domain: 'emr.example', successCount: 1 });
    const hints = await service().hintsFor({
      tenantId: 't1',
      url: 'https://emr.example/dashboard',
      goal: 'Add a new patient named Maria Lopez',
    });
    expect(hints).toHaveLength(1);
    expect(hints[0]?.text).toBe(
      'For a goal like "Add a new patient named Jas Patel", clicking “Patients” did not work (VERIFICATION_FAILED); clicking “New/Search” worked instead.',
    );
  });

  it('shows nothing for another site, another tenant or an unrelated goal', async () => {
    await service().learn(lesson());
    const none = async (input: { tenantId?: string; url?: string; goal?: string }) =>
      service().hintsFor({
        tenantId: input.tenantId ?? 't1',
        url: input.url ?? 'https://emr.example/',
        goal: input.goal ?? 'Add a new patient named Jas',
      });
    expect(await none({ url: 'https://other.example/' })).toEqual([]);
    expect(await none({ tenantId: 't2' })).toEqual([]);
    expect(await none({ goal: 'Export the schedule as CSV' })).toEqual([]);
  });

  it('ranks by success and recency, and drops skills that fail more than they work', async () => {
    const old = await service().learn(lesson());
    now = new Date('2026-11-20T12:00:00.000Z');
    const recent = await service().learn(
      lesson({
        succeeded: {
          action: 'click("80")',
          elementDescription: 'clicking “Add patient”',
          strategy: 'ALTERNATIVE_SELECTOR',
        },
      }),
    );
    const hints = await service().hintsFor({
      tenantId: 't1',
      url: 'https://emr.example/',
      goal: 'Add patient Jas Patel',
    });
    expect(hints.map((h) => h.skillId)).toEqual([recent?.id, old?.id]);

    await service().recordOutcome('t1', [recent?.id ?? ''], false);
    await service().recordOutcome('t1', [recent?.id ?? ''], false);
    const after = await service().hintsFor({
      tenantId: 't1',
      url: 'https://emr.example/',
      goal: 'Add patient Jas Patel',
    });
    expect(after.map((h) => h.skillId)).toEqual([old?.id]);
  });

  it('forgets skills unused for 90 days', async () => {
    await service().learn(lesson());
    now = new Date('2027-02-15T12:00:00.000Z');
    expect(
      await service().hintsFor({
        tenantId: 't1',
        url: 'https://emr.example/',
        goal: 'Add patient Jas',
      }),
    ).toEqual([]);
  });

  it('keeps nothing when the failed and the working action are the same', async () => {
    const same = lesson();
    expect(
      await service().learn({
        ...same,
        succeeded: { ...same.succeeded, action: same.failed.action },
      }),
    ).toBeNull();
  });
});
