import { defineEndpoint } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routeContractProblems, urlPathOf, type RouteModule } from './route-contract';

const registry = {
  health: defineEndpoint({
    path: '/api/health',
    method: 'GET',
    auth: 'none',
    summary: 'x',
    response: z.object({}),
    errors: [],
  }),
  task: defineEndpoint({
    path: '/api/tasks/:taskId',
    method: 'GET',
    auth: 'apiKey',
    summary: 'x',
    params: z.object({ taskId: z.string() }),
    response: z.object({}),
    errors: [],
  }),
};

/** What createRoute returns, as far as the check can see. */
const builtFrom = (endpoint: unknown) => Object.assign(() => undefined, { endpoint });

const health: RouteModule = {
  file: 'api/health/route.ts',
  urlPath: '/api/health',
  exports: { GET: builtFrom(registry.health), runtime: 'nodejs' },
};
const task: RouteModule = {
  file: 'api/tasks/[taskId]/route.ts',
  urlPath: '/api/tasks/:taskId',
  exports: { GET: builtFrom(registry.task) },
};

describe('urlPathOf', () => {
  it('writes dynamic segments as :name and drops route groups', () => {
    expect(urlPathOf('api/session/[sessionId]/task/active')).toBe(
      '/api/session/:sessionId/task/active',
    );
    expect(urlPathOf('(internal)/api/health')).toBe('/api/health');
    expect(urlPathOf('api\\tasks\\[taskId]')).toBe('/api/tasks/:taskId');
  });
});

describe('routeContractProblems', () => {
  it('accepts routes built from the endpoint at their path and method', () => {
    expect(routeContractProblems([health, task], registry)).toEqual([]);
  });

  it('rejects a route at a path or method the registry does not have', () => {
    const moved = { ...task, urlPath: '/api/task/:taskId' };
    const posted = {
      ...health,
      exports: { GET: health.exports.GET, POST: builtFrom(registry.health) },
    };
    expect(routeContractProblems([health, moved], registry)).toEqual([
      'api/tasks/[taskId]/route.ts: GET /api/task/:taskId is not in the endpoint registry',
      'endpoints.task (GET /api/tasks/:taskId) has no route',
    ]);
    expect(routeContractProblems([posted, task], registry)).toEqual([
      'api/health/route.ts: POST /api/health is not in the endpoint registry',
    ]);
  });

  it('rejects a route built from another endpoint, a copy of it, or by hand', () => {
    const cases = [
      builtFrom(registry.health),
      builtFrom({ ...registry.task }),
      () => new Response(null),
    ];
    for (const GET of cases) {
      expect(routeContractProblems([health, { ...task, exports: { GET } }], registry)).toEqual([
        'api/tasks/[taskId]/route.ts: GET /api/tasks/:taskId is not built from endpoints.task: use createRoute(endpoints.task, …)',
        'endpoints.task (GET /api/tasks/:taskId) has no route',
      ]);
    }
  });

  it('names every endpoint without a route, and API files without a method', () => {
    const empty = { ...health, exports: { runtime: 'nodejs' } };
    expect(routeContractProblems([empty], registry)).toEqual([
      'api/health/route.ts: exports no HTTP method',
      'endpoints.health (GET /api/health) has no route',
      'endpoints.task (GET /api/tasks/:taskId) has no route',
    ]);
  });

  it('rejects two registry endpoints at one path and method', () => {
    const twice = { ...registry, healthAgain: registry.health };
    expect(routeContractProblems([health, task], twice)).toEqual([
      'api/health/route.ts: GET /api/health matches 2 registry endpoints (health, healthAgain)',
      'endpoints.health (GET /api/health) has no route',
      'endpoints.healthAgain (GET /api/health) has no route',
    ]);
  });

  it('leaves non-API form handlers alone, unless they are built from an endpoint', () => {
    const logout: RouteModule = {
      file: 'admin/logout/route.ts',
      urlPath: '/admin/logout',
      exports: { POST: () => new Response(null, { status: 303 }) },
    };
    expect(routeContractProblems([health, task, logout], registry)).toEqual([]);
    const stray = { ...logout, exports: { GET: builtFrom(registry.health) } };
    expect(routeContractProblems([health, task, stray], registry)).toEqual([
      'admin/logout/route.ts: GET /admin/logout is not in the endpoint registry',
    ]);
  });
});
