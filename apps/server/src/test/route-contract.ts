// Checks Next route modules against the endpoint registry. Pure (no fs, no imports of routes) so
// the rules themselves are unit-tested; routes-match-endpoints.int.test.ts feeds it the real app.
import type { EndpointDefinition } from '@tandem/contracts';

/** The method exports Next routes a request to. */
export const NEXT_ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

export interface RouteModule {
  /** For messages: the file, relative to the app folder. */
  file: string;
  /** The URL path Next serves it at, in the registry's notation ("/api/tasks/:taskId"). */
  urlPath: string;
  exports: Record<string, unknown>;
}

/**
 * The URL path of a route folder relative to the app folder, in the registry's notation:
 * `[taskId]` is `:taskId`, route groups `(name)` add no segment.
 */
export function urlPathOf(folder: string): string {
  const segments = folder
    .split(/[\\/]/)
    .filter((segment) => segment !== '' && !/^\(.*\)$/.test(segment))
    .map((segment) => segment.replace(/^\[([A-Za-z_][A-Za-z0-9_]*)\]$/, ':$1'));
  return `/${segments.join('/')}`;
}

/** The endpoint createRoute built a handler from; undefined for anything else. */
function endpointOf(handler: unknown): unknown {
  if (typeof handler !== 'function' || !('endpoint' in handler)) return undefined;
  return handler.endpoint;
}

/**
 * What is wrong between the routes and the registry, one sentence each; empty when every
 * method a route exports is built from the one endpoint at its path and method, and every
 * endpoint has its route. Modules outside /api that no export ties to an endpoint (the admin
 * pages' form handlers) are not API routes and are left alone.
 */
export function routeContractProblems(
  modules: readonly RouteModule[],
  registry: Readonly<Record<string, EndpointDefinition>>,
): string[] {
  const problems: string[] = [];
  const servedBy = new Map<string, string[]>();
  for (const { file, urlPath, exports } of modules) {
    const methods = NEXT_ROUTE_METHODS.filter((method) => method in exports);
    const isApi =
      urlPath === '/api' ||
      urlPath.startsWith('/api/') ||
      methods.some((m) => endpointOf(exports[m]) !== undefined);
    if (!isApi) continue;
    if (methods.length === 0) problems.push(`${file}: exports no HTTP method`);
    for (const method of methods) {
      const at = `${file}: ${method} ${urlPath}`;
      const names = Object.keys(registry).filter((name) => {
        const endpoint = registry[name];
        return endpoint?.method === method && endpoint.path === urlPath;
      });
      const [name] = names;
      if (name === undefined || names.length > 1) {
        problems.push(
          name === undefined
            ? `${at} is not in the endpoint registry`
            : `${at} matches ${names.length} registry endpoints (${names.join(', ')})`,
        );
        continue;
      }
      if (endpointOf(exports[method]) !== registry[name]) {
        problems.push(
          `${at} is not built from endpoints.${name}: use createRoute(endpoints.${name}, …)`,
        );
        continue;
      }
      servedBy.set(name, [...(servedBy.get(name) ?? []), file]);
    }
  }
  for (const [name, endpoint] of Object.entries(registry)) {
    const files = servedBy.get(name) ?? [];
    if (files.length === 0) {
      problems.push(`endpoints.${name} (${endpoint.method} ${endpoint.path}) has no route`);
    } else if (files.length > 1) {
      problems.push(`endpoints.${name} is served by ${files.length} routes (${files.join(', ')})`);
    }
  }
  return problems;
}
