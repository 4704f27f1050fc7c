// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { newSkillRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newSkillRecord', () => {
  const failedState = { action: 'click(1)', elementDescription: 'Buy', errorType: 'hidden' };
  const successfulAction = { action: 'click(2)', elementDescription: 'Buy', strategy: 'scroll' };

  it('starts a skill at one success, used now', () => {
    const skill = newSkillRecord(
      T,
      { domain: 'a.example', goal: 'buy', failedState, successfulAction },
      NOW,
    );
    expect(skill).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      domain: 'a.example',
      goal: 'buy',
      failedState,
      successfulAction,
      successCount: 1,
      failureCount: 0,
      lastUsed: NOW,
      createdAt: NOW,
    });
  });
});
