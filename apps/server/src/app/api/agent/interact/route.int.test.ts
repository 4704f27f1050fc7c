import { ErrorResponse, InteractResponse } from '@tandem/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request, tenantWithKey, testRuntime } from '../../../../test/harness';
import type { Runtime } from '../../../../server/runtime';
import { GET as activeTask } from '../../session/[sessionId]/task/active/route';
import { POST } from './route';

let runtime: Runtime;
beforeEach(async () => {
  runtime = await testRuntime({ RATE_LIMIT_INTERACT_PER_MIN: '100' });
});
afterEach(async () => {
  await runtime.close();
});

const tree = [
  { i: '5', r: 'link', n: 'Home' },
  { i: '7', r: 'link', n: 'Logout' },
];

describe('POST /api/agent/interact', () => {
  it('answers "click Logout" with click on Logout\'s id, and recovers the task via task/active', async () => {
    const { key } = await tenantWithKey(runtime.store);
    const res = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key,
        body: { url: 'https://app.example/', query: 'click Logout', interactiveTree: tree },
      }),
    );
    expect(res.status).toBe(200);
    const body = InteractResponse.parse(await res.json());
    expect(body.needsUserInput).not.toBe(true);
    if (body.needsUserInput) return;
    expect(body.action).toBe('click("7")');

    const url = `/api/session/${body.sessionId}/task/active?url=${encodeURIComponent('https://app.example/')}`;
    const active = await activeTask.withRuntime(runtime)(request(url, { key }), {
      params: Promise.resolve({ sessionId: body.sessionId }),
    });
    expect(active.status).toBe(200);
    expect(await active.json()).toMatchObject({
      taskId: body.taskId,
      query: 'click Logout',
      status: 'executing',
    });

    const other = crypto.randomUUID();
    const none = await activeTask.withRuntime(runtime)(
      request(`/api/session/${other}/task/active`, { key }),
      { params: Promise.resolve({ sessionId: other }) },
    );
    expect(none.status).toBe(404);
  });

  it('401 without a key; 400 with field messages for a bad body; 404 for an unknown task', async () => {
    const { key } = await tenantWithKey(runtime.store);
    expect(
      (
        await POST.withRuntime(runtime)(
          request('/api/agent/interact', { method: 'POST', body: {} }),
        )
      ).status,
    ).toBe(401);
    const bad = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key,
        body: { url: 'nope', interactiveTree: tree },
      }),
    );
    expect(bad.status).toBe(400);
    const paths = ErrorResponse.parse(await bad.json()).error.fields?.map((f) => f.path);
    expect(paths).toContain('url');
    expect(paths).toContain('query');
    const unknown = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key,
        body: { url: 'https://a.example/', taskId: crypto.randomUUID(), interactiveTree: tree },
      }),
    );
    expect(unknown.status).toBe(404);
    expect(ErrorResponse.parse(await unknown.json()).error.code).toBe('NOT_FOUND');
  });

  it('a COMPLEX goal without a model configured gets 503 LLM_NOT_CONFIGURED with instructions', async () => {
    const { key } = await tenantWithKey(runtime.store);
    const res = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key,
        body: {
          url: 'https://emr.example/',
          query: 'Add a new patient named Jas',
          interactiveTree: tree,
        },
      }),
    );
    expect(res.status).toBe(503);
    const body = ErrorResponse.parse(await res.json());
    expect(body.error.code).toBe('LLM_NOT_CONFIGURED');
    expect(body.error.message).toMatch(/GEMINI_API_KEY/);
    expect(body.error.message).toMatch(/names one element on the page \("click Save"/);
  });

  it('another tenant cannot continue the task (404)', async () => {
    const a = await tenantWithKey(runtime.store);
    const b = await tenantWithKey(runtime.store);
    const res = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key: a.key,
        body: { url: 'https://app.example/', query: 'click Logout', interactiveTree: tree },
      }),
    );
    const body = (await res.json()) as { taskId: string };
    const stolen = await POST.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key: b.key,
        body: { url: 'https://app.example/', taskId: body.taskId, interactiveTree: tree },
      }),
    );
    expect(stolen.status).toBe(404);
  });
});
