// Stop is final even while a request that started before it still holds the task's lock: the
// next request of the cancelled task is refused as cancelled at once, not as busy (the client
// then stops asking instead of retrying a busy task).
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageRequest } from '../testing/harness';
import { idempotencyTaskLocks } from './task-locks';

const page: SemanticNodeV3[] = [
  { i: 's1', r: 'btn', n: 'Save' },
  { i: 's2', r: 'btn', n: 'Save draft' },
];

describe('a cancelled task', () => {
  it('is refused as cancelled while another request still holds its lock', async () => {
    const agent = await createTestAgent();
    const first = await agent.act(
      pageRequest('https://app.example/doc', page, { query: 'click Save' }),
    );
    await agent.service.cancel(agent.caller, first.taskId);
    const locks = idempotencyTaskLocks(agent.store.idempotency);
    await locks.withLock(agent.caller.tenantId, first.taskId, async () => {
      await expect(
        agent.interact(
          pageRequest('https://app.example/doc', page, {
            taskId: first.taskId,
            sessionId: first.sessionId,
            lastActionStatus: 'success',
          }),
        ),
      ).rejects.toMatchObject({ status: 409, code: 'TASK_CANCELLED' });
    });
  });
});
