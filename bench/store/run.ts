// Store benchmark for the embedded libSQL adapter. Reports against two targets and always
// exits 0: benchmarks inform, they do not fail CI (timings depend on the machine).
//
//   npm run bench:store
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLibsqlStore, type NewTaskAction, type Store } from '@tandem/store';

const TASKS = 3_000;
const ACTIONS = 20_000;
const BATCH = 500;
const LOOKUPS = 5_000;
const WARMUP_LOOKUPS = 200;

const TARGET_INSERTS_PER_S = 5_000;
const TARGET_P50_MS = 1;

interface Result {
  database: string;
  insertsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
}

const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function action(taskId: string, stepIndex: number): NewTaskAction {
  return {
    taskId,
    stepIndex,
    thought: 'The search box is visible; type the query and submit.',
    action: `setValue(${stepIndex % 50}, "running shoes")`,
    expectedOutcome: { description: 'results list appears', urlShouldChange: true },
    beforeState: { url: 'https://shop.test/', domHash: 'a1b2c3d4' },
    verification: null,
    status: 'pending',
    metrics: { durationMs: 420, inputTokens: 1800, outputTokens: 60 },
  };
}

async function measure(database: string, store: Store): Promise<Result> {
  const tenant = await store.tenants.create({ name: `bench-${Date.now()}` });
  const taskIds: string[] = [];
  for (let i = 0; i < TASKS; i += 1) {
    const task = await store.tasks.create(tenant.id, {
      userId: 'bench-user',
      url: `https://shop.test/item/${i}`,
      query: `find item ${i}`,
    });
    taskIds.push(task.id);
  }

  const actions = Array.from({ length: ACTIONS }, (_, i) =>
    action(taskIds[i % taskIds.length] ?? '', Math.floor(i / taskIds.length)),
  );
  const insertStart = process.hrtime.bigint();
  for (let start = 0; start < actions.length; start += BATCH) {
    await store.taskActions.insertMany(tenant.id, actions.slice(start, start + BATCH));
  }
  const insertsPerSecond = ACTIONS / (elapsedMs(insertStart) / 1000);

  const randomTaskId = (): string => taskIds[Math.floor(Math.random() * taskIds.length)] ?? '';
  for (let i = 0; i < WARMUP_LOOKUPS; i += 1) await store.tasks.get(tenant.id, randomTaskId());
  const samples: number[] = [];
  for (let i = 0; i < LOOKUPS; i += 1) {
    const id = randomTaskId();
    const start = process.hrtime.bigint();
    const task = await store.tasks.get(tenant.id, id);
    samples.push(elapsedMs(start));
    if (task === null) throw new Error(`task ${id} vanished`);
  }
  samples.sort((a, b) => a - b);
  return {
    database,
    insertsPerSecond,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-'));
  const results: Result[] = [];
  try {
    for (const [label, url] of [
      ['libsql file (WAL)', `file:${path.join(dir, 'bench.db')}`],
      ['libsql :memory:', ':memory:'],
    ] as const) {
      const store = await createLibsqlStore({ url });
      try {
        results.push(await measure(label, store));
      } finally {
        await store.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  const rows = results.map((r) => [
    r.database,
    Math.round(r.insertsPerSecond).toLocaleString('en-US'),
    verdict(r.insertsPerSecond >= TARGET_INSERTS_PER_S),
    r.p50Ms.toFixed(3),
    verdict(r.p50Ms < TARGET_P50_MS),
    r.p95Ms.toFixed(3),
  ]);
  const header = ['database', 'inserts/s (batch 500)', '', 'tasks.get p50 ms', '', 'p95 ms'];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');

  console.log(
    `Store benchmark: ${ACTIONS.toLocaleString('en-US')} task actions in batches of ${BATCH}, ` +
      `${LOOKUPS.toLocaleString('en-US')} tasks.get over ${TASKS.toLocaleString('en-US')} tasks`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(
    `Targets: >= ${TARGET_INSERTS_PER_S.toLocaleString('en-US')} inserts/s batched; ` +
      `p50 lookup < ${TARGET_P50_MS} ms`,
  );
}

main().catch((error: unknown) => {
  // Report, never fail: a broken run still exits 0 so CI is not gated on a benchmark.
  console.error('store benchmark failed:', error);
});
