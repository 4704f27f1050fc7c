// GET /api/tasks/{taskId}/collected through the real route: auth, tenant scoping, JSON paging
// and the CSV download, over a real in-memory libSQL store.
import { ErrorResponse, CollectedItemsResponse } from '@tandem/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { GET } from './route';

let runtime: Runtime;
let key: string;
let tenantId: string;
let taskId: string;

const get = (path: string, options: { key?: string; taskId?: string } = {}) =>
  GET.withRuntime(runtime)(request(path, { key: options.key ?? key }), {
    params: Promise.resolve({ taskId: options.taskId ?? taskId }),
  });
const url = (query = '') => `/api/tasks/${taskId}/collected${query}`;

/** RFC 4180 reader, enough to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  expect(field).toBe('');
  return rows;
}

beforeEach(async () => {
  runtime = await testRuntime();
  ({ key, tenantId } = await tenantWithKey(runtime.store));
  const task = await runtime.store.tasks.create(tenantId, {
    userId: 'user-1',
    url: 'http://127.0.0.1/jobs/',
    query: 'Collect every job',
  });
  taskId = task.id;
  const collect = (type: string, data: Record<string, unknown>, page: number) =>
    runtime.collect.collect({
      tenantId,
      taskId,
      type,
      data,
      sourceUrl: `http://127.0.0.1/jobs/?page=${page}`,
    });
  await collect('job', { jobId: 'J-1', title: 'Engineer', company: 'Acme', salary: '$150K' }, 1);
  await collect(
    'job',
    {
      jobId: 'J-2',
      title: 'Designer, Senior',
      company: 'Globex "Labs"',
      description: 'Line one\nLine two',
    },
    1,
  );
  await collect('job', { jobId: 'J-1', title: 'Engineer', company: 'Acme' }, 2);
  await collect('job', { title: 'Nurse', company: 'Riverside', pay: { min: 40, max: 55 } }, 2);
  await collect('note', { text: '=cmd()' }, 2);
});
afterEach(async () => {
  await runtime.close();
});

describe('GET /api/tasks/{taskId}/collected (JSON)', () => {
  it('answers every item in seq order with counts, duplicates left out', async () => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    const body = CollectedItemsResponse.parse(await res.json());
    expect(body).toMatchObject({
      taskId,
      counts: { job: 3, note: 1 },
      total: 4,
      nextSeq: 4,
      hasMore: false,
    });
    expect(body.items.map((i) => [i.seq, i.type, i.uniqueKey])).toStrictEqual([
      [1, 'job', 'job:J-1'],
      [2, 'job', 'job:J-2'],
      [3, 'job', 'nurse@riverside'],
      [4, 'note', null],
    ]);
    expect(body.items[0]).toMatchObject({
      data: { jobId: 'J-1', title: 'Engineer', company: 'Acme', salary: '$150K' },
      sourceUrl: 'http://127.0.0.1/jobs/?page=1',
    });
  });

  it('pages with afterSeq and limit, and a poll with the last nextSeq returns only new items', async () => {
    const first = CollectedItemsResponse.parse(await (await get(url('?limit=3'))).json());
    expect(first.items.map((i) => i.seq)).toStrictEqual([1, 2, 3]);
    expect(first).toMatchObject({ nextSeq: 3, hasMore: true });
    const second = CollectedItemsResponse.parse(
      await (await get(url(`?limit=3&afterSeq=${first.nextSeq}`))).json(),
    );
    expect(second.items.map((i) => i.seq)).toStrictEqual([4]);
    expect(second).toMatchObject({ nextSeq: 4, hasMore: false });
    const empty = CollectedItemsResponse.parse(await (await get(url('?afterSeq=4'))).json());
    expect(empty).toMatchObject({ items: [], nextSeq: 4, hasMore: false, total: 4 });

    await runtime.collect.collect({ tenantId, taskId, type: 'job', data: { jobId: 'J-9' } });
    const fresh = CollectedItemsResponse.parse(await (await get(url('?afterSeq=4'))).json());
    expect(fresh.items.map((i) => i.uniqueKey)).toStrictEqual(['job:J-9']);
  });

  it('filters by type (normalized like collect does)', async () => {
    const body = CollectedItemsResponse.parse(await (await get(url('?type=Note'))).json());
    expect(body.items.map((i) => i.type)).toStrictEqual(['note']);
    expect(body.counts).toStrictEqual({ job: 3, note: 1 });
  });

  it('rejects a bad query with field messages', async () => {
    const res = await get(url('?format=xml&limit=0'));
    expect(res.status).toBe(400);
    const body = ErrorResponse.parse(await res.json());
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.fields?.map((f) => f.path).sort()).toStrictEqual([
      'query.format',
      'query.limit',
    ]);
  });
});

describe('GET /api/tasks/{taskId}/collected (CSV)', () => {
  it('downloads every item with escaping, the union of keys and an attachment name', async () => {
    const res = await get(url('?format=csv'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="task-${taskId}-collected.csv"`,
    );
    const text = await res.text();
    const rows = parseCsv(text);
    expect(rows[0]).toStrictEqual([
      '_seq',
      '_type',
      '_sourceUrl',
      'jobId',
      'title',
      'company',
      'salary',
      'description',
      'pay',
      'text',
    ]);
    expect(rows.slice(1)).toStrictEqual([
      ['1', 'job', 'http://127.0.0.1/jobs/?page=1', 'J-1', 'Engineer', 'Acme', '$150K', '', '', ''],
      [
        '2',
        'job',
        'http://127.0.0.1/jobs/?page=1',
        'J-2',
        'Designer, Senior',
        'Globex "Labs"',
        '',
        'Line one\nLine two',
        '',
        '',
      ],
      [
        '3',
        'job',
        'http://127.0.0.1/jobs/?page=2',
        '',
        'Nurse',
        'Riverside',
        '',
        '',
        '{"min":40,"max":55}',
        '',
      ],
      // Page text that looks like a formula is defused for spreadsheets.
      ['4', 'note', 'http://127.0.0.1/jobs/?page=2', '', '', '', '', '', '', "'=cmd()"],
    ]);
  });

  it('narrows to a type, with the type in the file name', async () => {
    const res = await get(url('?format=csv&type=note'));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="task-${taskId}-collected-note.csv"`,
    );
    expect(parseCsv(await res.text())).toStrictEqual([
      ['_seq', '_type', '_sourceUrl', 'text'],
      ['4', 'note', 'http://127.0.0.1/jobs/?page=2', "'=cmd()"],
    ]);
  });
});

describe('access', () => {
  it('401 without a key', async () => {
    const res = await GET.withRuntime(runtime)(request(url()), {
      params: Promise.resolve({ taskId }),
    });
    expect(res.status).toBe(401);
    expect(ErrorResponse.parse(await res.json()).error.code).toBe('UNAUTHORIZED');
  });

  it("404 for another tenant's task, exactly as for a task that does not exist", async () => {
    const other = await tenantWithKey(runtime.store);
    const theirs = await get(url(), { key: other.key });
    expect(theirs.status).toBe(404);
    const missing = await get('/x', { taskId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(ErrorResponse.parse(await theirs.json()).error).toStrictEqual({
      code: 'NOT_FOUND',
      message: `Task ${taskId} not found.`,
    });
    expect((await missing.json()).error.code).toBe('NOT_FOUND');
    const csv = await get(url('?format=csv'), { key: other.key });
    expect(csv.status).toBe(404);
  });

  it('400 for a task id that is not a UUID', async () => {
    const res = await get('/x', { taskId: 'not-a-uuid' });
    expect(res.status).toBe(400);
    expect(ErrorResponse.parse(await res.json()).error.fields?.[0]?.path).toBe('params.taskId');
  });
});
