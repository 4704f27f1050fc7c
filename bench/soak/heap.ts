// Heap snapshots of the server under soak (`--heap`): the server runs with
// --heapsnapshot-signal=SIGUSR2, so a signal makes V8 collect garbage and write the live heap to
// a .heapsnapshot file in its working directory. What is still reachable after the idle minute,
// compared with before the load, by constructor, is the answer to "is this a leak".
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface HeapSummary {
  file: string;
  totalBytes: number;
  nodes: number;
  /** Self size and count per "type:name" (e.g. "object:Map", "closure:serve", "string"). */
  byKey: Map<string, { bytes: number; count: number }>;
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

function summarize(file: string): HeapSummary {
  const json = JSON.parse(readFileSync(file, 'utf8')) as SnapshotJson;
  const fields = json.snapshot.meta.node_fields;
  const types = json.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byKey = new Map<string, { bytes: number; count: number }>();
  let totalBytes = 0;
  for (let i = 0; i < json.nodes.length; i += width) {
    const type = types[json.nodes[i + typeAt] ?? 0] ?? '?';
    const size = json.nodes[i + sizeAt] ?? 0;
    // Strings and numbers are keyed by type alone: their "name" is their content.
    const name = [
      'string',
      'concatenated string',
      'sliced string',
      'number',
      'heap number',
    ].includes(type)
      ? ''
      : (json.strings[json.nodes[i + nameAt] ?? 0] ?? '');
    const key = name ? `${type}:${name.slice(0, 60)}` : type;
    const entry = byKey.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += size;
    entry.count += 1;
    byKey.set(key, entry);
    totalBytes += size;
  }
  return { file, totalBytes, nodes: json.nodes.length / width, byKey };
}

/** Signals the server and waits for its snapshot file to be written completely. */
export async function takeSnapshot(pid: number, dir: string, label: string): Promise<HeapSummary> {
  const existing = new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await sleep(1_000);
    const fresh = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !existing.has(f));
    if (!fresh) continue;
    const file = path.join(dir, fresh);
    const size = statSync(file).size;
    await sleep(2_000);
    if (statSync(file).size !== size || size === 0) continue;
    try {
      const summary = summarize(file);
      console.log(
        `  heap snapshot ${label}: ${(summary.totalBytes / 1e6).toFixed(1)} MB live in ${summary.nodes} objects (${fresh})`,
      );
      return summary;
    } catch {
      // Still being written: try again.
    }
  }
  throw new Error(`no heap snapshot from pid ${pid} within 120 s`);
}

/** What grew between two snapshots, largest first. */
export function compareSnapshots(before: HeapSummary, after: HeapSummary, top = 15): void {
  const rows = [...after.byKey].map(([key, a]) => {
    const b = before.byKey.get(key) ?? { bytes: 0, count: 0 };
    return { key, bytes: a.bytes - b.bytes, count: a.count - b.count };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  const delta = after.totalBytes - before.totalBytes;
  console.log(
    `  live heap ${(before.totalBytes / 1e6).toFixed(1)} → ${(after.totalBytes / 1e6).toFixed(1)} MB (${delta >= 0 ? '+' : ''}${(delta / 1e6).toFixed(1)} MB); grew most:`,
  );
  for (const row of rows.slice(0, top)) {
    console.log(
      `    ${(row.bytes / 1e3).toFixed(0).padStart(8)} kB  ${String(row.count).padStart(7)} objects  ${row.key}`,
    );
  }
}
