// Document runs as jobs across processes: two "processes" (each its own store connection to one
// libSQL file, embedded job queue with a short lease, event bus, agent service and runner) as
// `next start` and `npm run worker` on one DATA_DIR. The first dies mid-run (its queue halted as
// after SIGKILL, right before the model's turn that would complete the extraction); the second
// takes the job over and finishes from the fields the first saved, without reading the
// document again. A run whose attempts all fail leaves the extraction failed with the reason,
// and a retry finishes it. The model is the scripted document model through the real LLM client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentAgentService, type Caller, type RunStreamItem } from '@tandem/documents';
import { type LlmConverseRequest } from '@tandem/llm';
import { type ScriptedStep } from '@tandem/llm/testing';
import { createScriptedLlm } from '@tandem/agent/testing';
import type { ExtractionStreamEvent } from '@tandem/contracts';
import {
  documentModelTurn,
  INVOICE,
  renderPdf,
  type ModelMessage,
  type ModelTurn,
} from '@tandem/documents/testing';
import {
  createEmbeddedEventBus,
  createEmbeddedJobQueue,
  createRedisEventBus,
  createRedisJobQueue,
  haltEmbeddedJobQueue,
  haltRedisJobQueue,
  type EventBus,
  type JobQueue,
} from '@tandem/jobs';
import {
  redisServerInstalled,
  redisServerMissing,
  startRedisServer,
  type RedisServer,
} from '@tandem/jobs/testing';
import { extractDocument } from '@tandem/knowledge/ingestion';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_RUN_QUEUE, DocumentRunner } from './document-runs';
import { HttpError } from './http-error';
import { createLogger } from './logger';

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-document-runs-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
const caller: Caller = { tenantId: 'tenant-runs', userId: 'user-runs' };

interface Process {
  store: Store;
  queue: JobQueue;
  bus: EventBus;
  documents: DocumentAgentService;
  runner: DocumentRunner;
  close(): Promise<void>;
}

const opened: Process[] = [];

/** Where the processes queue jobs and publish events: the store, or a Redis server. */
interface Backend {
  name: string;
  queue(store: Store): JobQueue;
  bus(store: Store): EventBus;
  /** The process holding `queue` dies, as after SIGKILL. */
  halt(queue: JobQueue): Promise<void>;
}

// A short lease: a dead worker's job is taken over in about a second.
const embedded: Backend = {
  name: 'embedded',
  queue: (store) => createEmbeddedJobQueue({ store, leaseMs: 600, pollMs: 50 }),
  bus: (store) => createEmbeddedEventBus({ store, pollMs: 50 }),
  halt: (queue) => Promise.resolve(haltEmbeddedJobQueue(queue)),
};

const redisInstalled = redisServerInstalled();
let redis: RedisServer | null = null;
const prefix = `tandem-test-${Date.now().toString(36)}`;
const onRedis: Backend = {
  name: 'redis',
  queue: () => createRedisJobQueue({ url: redis?.url ?? '', prefix, leaseMs: 1_000 }),
  bus: () => createRedisEventBus({ url: redis?.url ?? '', prefix }),
  halt: (queue) => haltRedisJobQueue(queue),
};

beforeAll(async () => {
  if (redisInstalled) redis = await startRedisServer();
  else console.info(redisServerMissing('the Redis document-run takeover'));
});
afterEach(async () => {
  for (const process of opened.splice(0)) await process.close();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The scripted document model, `reply` deciding each turn from the one it would give. */
function model(reply: (turn: ModelTurn, request: LlmConverseRequest) => Promise<ModelTurn>) {
  const steps: ScriptedStep[] = Array.from({ length: 24 }, () => ({
    node: 'document_extraction' as const,
    reply: (request: LlmConverseRequest) =>
      reply(documentModelTurn(request.messages as ModelMessage[]), request),
  }));
  return createScriptedLlm(steps);
}

async function open(
  llm: ReturnType<typeof createScriptedLlm>,
  options: { attempts?: number; backend?: Backend } = {},
): Promise<Process> {
  const { backend = embedded, ...runOptions } = options;
  const store = await createLibsqlStore({ url });
  const queue = backend.queue(store);
  const bus = backend.bus(store);
  const documents = new DocumentAgentService({
    store,
    llm,
    events: bus,
    readDocument: (file) => extractDocument(file.bytes, file),
  });
  const runner = new DocumentRunner({
    store,
    documents,
    queue,
    events: bus,
    runsPerTenant: 2,
    log: createLogger('error'),
    backoffMs: 20,
    ...runOptions,
  });
  let closed = false;
  const process: Process = {
    store,
    queue,
    bus,
    documents,
    runner,
    close: async () => {
      if (closed) return;
      closed = true;
      await queue.close();
      runner.close();
      await bus.close();
      await store.close();
    },
  };
  opened.push(process);
  return process;
}

async function collect(items: AsyncIterable<RunStreamItem>) {
  const out: ExtractionStreamEvent[] = [];
  for await (const item of items) out.push(item.event);
  return out;
}

const uploadInvoice = async (process: Process) =>
  process.documents.uploadDocument(caller, {
    bytes: await renderPdf(INVOICE.layout),
    fileName: INVOICE.fileName,
    mimeType: INVOICE.mimeType,
  });

/** Whether any lease of the run (its lock, the tenant's slots) is still held in the store. */
async function leasesHeld(store: Store, extractionId: string): Promise<string[]> {
  const keys = [
    `document-run:${extractionId}`,
    'tenant-slot:document-run:0',
    'tenant-slot:document-run:1',
  ];
  const held = await Promise.all(
    keys.map(async (key) => ((await store.idempotency.get(caller.tenantId, key)) ? key : null)),
  );
  return held.filter((key): key is string => key !== null);
}

const calls = (turn: ModelTurn) => (turn.toolCalls ?? []).map((call) => call.name);

/**
 * Process A saves the fields, then hangs on the turn that would complete the extraction and
 * dies; process B takes the job over and completes the extraction from the saved fields.
 */
async function takeover(backend: Backend): Promise<void> {
  let reached!: () => void;
  const atCompletion = new Promise<void>((resolve) => (reached = resolve));
  let unblock!: () => void;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));
  const a = await open(
    model(async (turn) => {
      if (calls(turn).includes('complete_extraction')) {
        reached();
        await blocked;
        throw new Error('the process is gone');
      }
      return turn;
    }),
    { backend },
  );
  const continued: string[] = [];
  const b = await open(
    model(async (turn, request) => {
      const first = request.messages[0];
      if (first?.role === 'user') continued.push(first.text);
      return turn;
    }),
    { backend },
  );
  const document = await uploadInvoice(a);

  const started = await a.runner.startExtraction(caller, { documentId: document.id });
  a.runner.serve();
  // Process B follows the run on the bus from the start, as GET /events would.
  const followed = collect(await b.documents.followExtraction(caller, started.record.id));
  await atCompletion;
  const saved = await a.store.documentExtractions.get(caller.tenantId, started.record.id);
  expect(saved?.status).toBe('in_progress');
  expect(Object.keys(saved?.fields ?? {}).length).toBeGreaterThan(0);

  // A dies: it renews nothing more, and its hanging handler is left to the void.
  await backend.halt(a.queue);
  a.runner.close();
  b.runner.serve();

  const events = await followed;
  expect(events.at(-1)).toEqual({
    complete: true,
    extraction_id: started.record.id,
    cost: expect.any(Number),
  });
  const done = await b.store.documentExtractions.get(caller.tenantId, started.record.id);
  expect(done?.status).toBe('completed');
  expect(done?.fields).toEqual(saved?.fields);
  // B continued: asked to build on the saved fields, it never extracted them again.
  expect(continued[0]).toMatch(/^Continue the extraction/);
  const writes = await b.store.documentExtractions.listWrites(caller.tenantId, started.record.id);
  expect(writes.filter((w) => w.tool === 'extract_fields')).toHaveLength(1);
  expect(writes.filter((w) => w.tool === 'complete_extraction')).toHaveLength(1);
  const job = await b.queue.state(caller.tenantId, DOCUMENT_RUN_QUEUE, started.runId);
  expect(job).toMatchObject({ status: 'completed', attempts: 2 });
  // The run's lock and the tenant's slot are free again (B freed what A had claimed).
  expect(await leasesHeld(b.store, started.record.id)).toEqual([]);
  unblock();
}

describe('document runs as jobs', () => {
  it('a run started on one process, which dies mid-run, is finished by another from the saved fields', async () => {
    await takeover(embedded);
  });

  it.skipIf(!redisInstalled)('the same takeover with the queue and the bus on Redis', async () => {
    await takeover(onRedis);
  });

  it('a run whose attempts all fail leaves the extraction failed with the reason; a retry finishes it', async () => {
    let down = true;
    const p = await open(
      model(async (turn) => {
        if (down) throw new Error('the model is down');
        return turn;
      }),
      { attempts: 2 },
    );
    p.runner.serve();
    const document = await uploadInvoice(p);
    const started = await p.runner.startExtraction(caller, { documentId: document.id });
    const events = await collect(started.events);
    expect(events.at(-1)).toMatchObject({ complete: true, extraction_id: started.record.id });
    const failed = await p.store.documentExtractions.get(caller.tenantId, started.record.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^The run stopped 2 times and was given up: /);
    expect(events).toContainEqual({ text: failed?.error });
    expect(await leasesHeld(p.store, started.record.id)).toEqual([]);

    // A correction is not a retry: only a failed extraction is retried, by its own user.
    const other: Caller = { tenantId: 'tenant-other', userId: 'user-other' };
    await expect(p.runner.retry(other, started.record.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    down = false;
    const again = await p.runner.retry(caller, started.record.id);
    const retried = await collect(again.events);
    expect(retried.at(-1)).toMatchObject({ complete: true, extraction_id: started.record.id });
    const done = await p.store.documentExtractions.get(caller.tenantId, started.record.id);
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(Object.keys(done?.fields ?? {}).length).toBeGreaterThan(0);
    expect(await leasesHeld(p.store, started.record.id)).toEqual([]);

    const refused = await p.runner.retry(caller, started.record.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ code: 'CONFLICT' });
  });
});
