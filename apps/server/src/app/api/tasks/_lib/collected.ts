// GET /api/tasks/{taskId}/collected: one JSON page of items (by seq), or all of them as CSV.
import { collectedItemsToCsv, collectedTotal, toCollectedItemEntry } from '@tandem/agent';
import {
  CollectedItemsResponse,
  type CollectedItemsQuery,
  type TaskParams,
} from '@tandem/contracts';
import type { CollectedItem } from '@tandem/store';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';
import type { AuthContext } from '../../../../server/auth';
import { csvAttachment, requireTask } from './task-access';

/**
 * The most rows one CSV answer holds. The file is built in memory (the header needs every
 * item's keys first), so it is capped; `afterSeq` lets a client fetch a longer run in parts.
 */
export const CSV_MAX_ROWS = 50_000;
// The store's own largest page.
const CSV_PAGE = 10_000;

const noStore = { 'cache-control': 'no-store' };

export async function collectedItems(ctx: {
  query: CollectedItemsQuery;
  params: TaskParams;
  auth: AuthContext;
  runtime: Runtime;
}): Promise<Response> {
  const { query, params, auth, runtime } = ctx;
  const { store } = runtime;
  const task = await requireTask(runtime, auth.tenantId, params.taskId);
  const filter = query.type === undefined ? {} : { type: query.type };

  if (query.format === 'csv') {
    const items: CollectedItem[] = [];
    let afterSeq = query.afterSeq;
    for (;;) {
      const page = await store.collectedItems.list(auth.tenantId, task.id, {
        ...filter,
        afterSeq,
        limit: CSV_PAGE,
      });
      items.push(...page);
      if (items.length > CSV_MAX_ROWS) {
        throw new HttpError(
          'PAYLOAD_TOO_LARGE',
          `More than ${CSV_MAX_ROWS} items: fetch the CSV in parts with afterSeq, or page the JSON.`,
        );
      }
      const last = page.at(-1);
      if (!last || page.length < CSV_PAGE) break;
      afterSeq = last.seq;
    }
    const name = `task-${task.id}-collected${query.type ? `-${query.type}` : ''}.csv`;
    // The name is built from a UUID and a type matching [a-z0-9_-]: nothing to escape.
    return csvAttachment(name, collectedItemsToCsv(items));
  }

  // One extra row tells whether another page follows without a second query.
  const [rows, counts] = await Promise.all([
    store.collectedItems.list(auth.tenantId, task.id, {
      ...filter,
      afterSeq: query.afterSeq,
      limit: query.limit + 1,
    }),
    store.collectedItems.countByType(auth.tenantId, task.id),
  ]);
  const items = rows.slice(0, query.limit);
  const body = CollectedItemsResponse.parse({
    taskId: task.id,
    items: items.map(toCollectedItemEntry),
    counts,
    total: collectedTotal(counts),
    nextSeq: items.at(-1)?.seq ?? query.afterSeq,
    hasMore: rows.length > query.limit,
  });
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { ...noStore, 'content-type': 'application/json; charset=utf-8' },
  });
}
