// GET /api/tasks/{taskId}/extractions: the task's extraction results (one per page) and their
// aggregates per extractionId as JSON, or one aggregate's list as CSV for a spreadsheet.
import {
  csvTable,
  TaskExtractionsResponse,
  type TaskExtractionsQuery,
  type TaskParams,
} from '@tandem/contracts';
import { aggregateResults, toResult } from '@tandem/extraction';
import type { ExtractionResultRecord } from '@tandem/store';
import type { AuthContext } from '../../../../server/auth';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';
import { csvAttachment, requireTask } from './task-access';

const noStore = { 'cache-control': 'no-store' };
/** The store's largest page: a task extracts a page at a time, far fewer results than this. */
const MAX_RESULTS = 10_000;

export async function taskExtractions(ctx: {
  query: TaskExtractionsQuery;
  params: TaskParams;
  auth: AuthContext;
  runtime: Runtime;
}): Promise<Response> {
  const { query, params, auth, runtime } = ctx;
  const task = await requireTask(runtime, auth.tenantId, params.taskId);
  const results = await runtime.store.extractionResults.listByTask(auth.tenantId, task.id, {
    ...(query.extractionId ? { extractionId: query.extractionId } : {}),
    limit: MAX_RESULTS,
  });
  if (query.format === 'csv') return csvAnswer(task.id, results, query.extractionId);
  const body = TaskExtractionsResponse.parse({
    taskId: task.id,
    aggregates: aggregateResults(results).map((aggregator) => aggregator.aggregate()),
    results: results.map(stored),
  });
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { ...noStore, 'content-type': 'application/json; charset=utf-8' },
  });
}

const stored = (record: ExtractionResultRecord) => ({
  ...toResult(record),
  id: record.id,
  taskId: record.taskId,
  query: record.query,
  createdAt: record.createdAt,
});

function csvAnswer(
  taskId: string,
  results: readonly ExtractionResultRecord[],
  extractionId: string | undefined,
): Response {
  const aggregates = aggregateResults(results);
  if (aggregates.length === 0) {
    throw new HttpError(
      'NOT_FOUND',
      `Task ${taskId} has no extraction${extractionId ? ` ${extractionId}` : ''}.`,
    );
  }
  if (aggregates.length > 1) {
    throw new HttpError(
      'BAD_REQUEST',
      `Task ${taskId} has ${aggregates.length} extractions; pick one with extractionId (${aggregates.map((a) => a.extractionId).join(', ')}).`,
    );
  }
  const aggregate = aggregates[0] as (typeof aggregates)[number];
  const data = aggregate.data();
  if (!Array.isArray(data)) {
    throw new HttpError('BAD_REQUEST', 'This extraction is not a list; download it as JSON.');
  }
  const name = `task-${taskId}-extraction-${aggregate.extractionId}.csv`;
  // The name is a UUID and an id matching [A-Za-z0-9_-]: nothing to escape.
  return csvAttachment(name, rowsToCsv(data));
}

/** One row per item, columns in first-seen order; a scalar item is one `value` column. */
export function rowsToCsv(items: readonly unknown[]): string {
  const rows = items.map((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : { value: item },
  );
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return csvTable(
    columns,
    rows.map((row) => columns.map((column) => row[column])),
  );
}
