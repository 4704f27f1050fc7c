// bench:knowledge — the knowledge figures: ingestion pages/s on data/pages-dev, retrieval p95 at
// 100k chunks on libSQL (target ≤ 50 ms), and recall@5 on the demo docs questions (target
// ≥ 0.9 with embeddings; lexical-only reported too). Each part uses its own file database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLibsqlStore } from '@tandem/store';
import { benchIngestion } from './ingest';
import { benchRecall } from './recall';
import { benchScale } from './scale';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    chunks: { type: 'string', default: '100000' },
    dimensions: { type: 'string', default: '768' },
    queries: { type: 'string', default: '200' },
    /** Keep the databases (their paths are printed) to look into them afterwards. */
    keep: { type: 'boolean', default: false },
  },
});
const DATA = resolve(import.meta.dirname, '../../../shared/data/pages-dev');

async function withStore<T>(
  run: (store: Awaited<ReturnType<typeof createLibsqlStore>>) => Promise<T>,
) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-knowledge-'));
  const store = await createLibsqlStore({ url: `file:${join(dir, 'bench.db')}` });
  try {
    return await run(store);
  } finally {
    await store.close();
    if (args.keep) console.log(`kept ${join(dir, 'bench.db')}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const parts = args.only?.split(',') ?? ['ingest', 'scale', 'recall'];
const lines: string[] = [];
if (parts.includes('ingest')) lines.push(...(await withStore((s) => benchIngestion(s, DATA))));
if (parts.includes('recall')) lines.push(...(await withStore((s) => benchRecall(s))));
if (parts.includes('scale')) {
  lines.push(
    ...(await withStore((s) =>
      benchScale(s, {
        chunks: Number(args.chunks),
        dimensions: Number(args.dimensions),
        queries: Number(args.queries),
      }),
    )),
  );
}
console.log(lines.join('\n'));
