// Every route.ts of the app against the endpoint registry the extension's client is built from:
// each method a route under /api exports is createRoute(endpoints.x, …) for the one endpoint at
// its folder path and method, and every endpoint has its route. Reads the app folder (file I/O,
// hence the int tier).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { endpoints } from '@tandem/contracts';
import { expect, it } from 'vitest';
import { routeContractProblems, urlPathOf, type RouteModule } from '../../test/route-contract';

const APP_DIR = path.resolve(import.meta.dirname, '..');

async function routeModules(): Promise<RouteModule[]> {
  const files = readdirSync(APP_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => /^route\.(ts|tsx|js|mjs)$/.test(path.basename(file)))
    .sort();
  return Promise.all(
    files.map(async (file) => ({
      file,
      urlPath: urlPathOf(path.dirname(file)),
      exports: (await import(path.join(APP_DIR, file))) as Record<string, unknown>,
    })),
  );
}

it('every API route is built from its registry endpoint, and every endpoint has a route', async () => {
  const modules = await routeModules();
  expect(modules.map((m) => m.file)).toContain(path.join('api', 'agent', 'interact', 'route.ts'));
  expect(routeContractProblems(modules, endpoints)).toEqual([]);
});
