import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActiveTaskResponse, InteractRequest, InteractResponse } from './interact';
import { buildPath, defineEndpoint, endpoints, pathParamNames } from './endpoints';
import { HealthResponse } from './system';

const SESSION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('endpoint registry', () => {
  it('declares the interact loop endpoints with their schemas', () => {
    expect(endpoints.health).toMatchObject({ path: '/api/health', method: 'GET', auth: 'none' });
    expect(endpoints.health.response).toBe(HealthResponse);
    expect(endpoints.interact).toMatchObject({
      path: '/api/agent/interact',
      method: 'POST',
      auth: 'apiKey',
    });
    expect(endpoints.interact.request).toBe(InteractRequest);
    expect(endpoints.interact.response).toBe(InteractResponse);
    expect(endpoints.activeTask).toMatchObject({
      path: '/api/session/:sessionId/task/active',
      method: 'GET',
      auth: 'apiKey',
    });
    expect(endpoints.activeTask.response).toBe(ActiveTaskResponse);
  });

  it.each(Object.entries(endpoints))(
    '%s: params schema keys are exactly the path segments',
    (_, e) => {
      const names = pathParamNames(e.path);
      const params = 'params' in e ? e.params : undefined;
      if (names.length === 0) {
        expect(params).toBeUndefined();
        return;
      }
      expect(params).toBeInstanceOf(z.ZodObject);
      expect(Object.keys((params as z.ZodObject).shape).sort()).toStrictEqual([...names].sort());
    },
  );

  it('validates the activeTask query and params', () => {
    expect(endpoints.activeTask.params.safeParse({ sessionId: 'nope' }).success).toBe(false);
    expect(endpoints.activeTask.query.parse({ url: 'https://a.example/x' })).toStrictEqual({
      url: 'https://a.example/x',
    });
    expect(endpoints.activeTask.query.parse({})).toStrictEqual({});
  });

  it('defineEndpoint keeps literal types', () => {
    const e = defineEndpoint({
      path: '/api/things/:id',
      method: 'DELETE',
      auth: 'admin',
      summary: 'x',
      response: z.object({}),
      errors: [],
    });
    const method: 'DELETE' = e.method;
    expect(method).toBe('DELETE');
    expect(buildPath(e, { id: '7' })).toBe('/api/things/7');
  });
});

describe('buildPath', () => {
  it('substitutes and URI-encodes path parameters', () => {
    expect(buildPath(endpoints.activeTask, { sessionId: SESSION_ID })).toBe(
      `/api/session/${SESSION_ID}/task/active`,
    );
    expect(buildPath(endpoints.activeTask, { sessionId: 'a/b c?' })).toBe(
      '/api/session/a%2Fb%20c%3F/task/active',
    );
  });

  it('appends the query, leaving out null and undefined values', () => {
    expect(
      buildPath(
        endpoints.activeTask,
        { sessionId: 's1' },
        { url: 'https://x.example/?a=1&b', n: undefined, m: null },
      ),
    ).toBe('/api/session/s1/task/active?url=https%3A%2F%2Fx.example%2F%3Fa%3D1%26b');
    expect(buildPath(endpoints.health)).toBe('/api/health');
    expect(buildPath(endpoints.health, {}, { verbose: true, n: 2 })).toBe(
      '/api/health?verbose=true&n=2',
    );
  });

  it('throws on a missing or empty parameter', () => {
    // @ts-expect-error sessionId is required by the path's type
    expect(() => buildPath(endpoints.activeTask, {})).toThrow(
      'buildPath(/api/session/:sessionId/task/active): missing path parameter "sessionId"',
    );
    expect(() => buildPath(endpoints.activeTask, { sessionId: '' })).toThrow(
      /missing path parameter "sessionId"/,
    );
  });

  it('finds every :name segment', () => {
    expect(pathParamNames('/a/:one/b/:two_2')).toStrictEqual(['one', 'two_2']);
    expect(pathParamNames('/api/health')).toStrictEqual([]);
  });
});
