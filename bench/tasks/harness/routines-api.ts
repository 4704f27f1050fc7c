// The tenant's routines as the admin API lists them (GET /api/routines?versions=all, with the
// bench's key, which is the dev tenant's admin key), and DELETE to start a routine over. The
// routines mode reads them to tell which routine a run saved, whether a rerun used it, and
// whether a variant's run stored a new version.
import type { DeleteRoutineResponse, RoutineList, RoutineSummary } from '@tandem/contracts';

type Server = { url: string; apiKey: string };

async function call<T>(server: Server, method: 'GET' | 'DELETE', path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every stored version of every routine of the tenant, newest first. */
export async function routineVersions(server: Server): Promise<RoutineSummary[]> {
  const items: RoutineSummary[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ versions: 'all', limit: '200' });
    if (cursor) query.set('cursor', cursor);
    const page: RoutineList = await call<RoutineList>(server, 'GET', `/api/routines?${query}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** Deletes the routine `id` belongs to, every version of it. */
export async function deleteRoutine(server: Server, id: string): Promise<number> {
  const { deleted } = await call<DeleteRoutineResponse>(
    server,
    'DELETE',
    `/api/routines/${encodeURIComponent(id)}`,
  );
  return deleted;
}
