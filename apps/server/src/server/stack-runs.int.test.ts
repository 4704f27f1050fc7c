// Stack runs as jobs across processes: two "processes" (each its own store connection to one
// libSQL file, embedded job queue with a short lease, event bus, agent service and runner) as
// `next start` and `npm run worker` on one DATA_DIR. The first dies mid-run (its queue halted as
// after SIGKILL) after saving one document's row; the second takes the job over, is told which
// rows are kept, and finishes the table; a completed stack is never run again. A run whose
// attempts all fail leaves the stack failed with the reason. The model is the scripted stack
// model through the real LLM client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentAgentService, type Caller } from '@tandem/documents';
import { type LlmConverseRequest } from '@tandem/llm';
import { type ScriptedStep } from '@tandem/llm/testing';
import { createScriptedLlm } from '@tandem/agent/testing';
import type { StackStreamEvent } from '@tandem/contracts';
import {
  invoiceVariant,
  renderPdf,
  stackModelTurn,
  type ModelMessage,
  type ModelTurn,
} from '@tandem/documents/testing';
import {
  createEmbeddedEventBus,
  createEmbeddedJobQueue,
  haltEmbeddedJobQueue,
  type EventBus,
  type JobQueue,
} from '@tandem/jobs';
import { extractDocument } from '@tandem/knowledge/ingestion';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { STACK_RUN_QUEUE, StackRunner } from './stack-runs';

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-stack-runs-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
const caller: Caller = { tenantId: 'tenant-stacks', userId: 'user-stacks' };

interface Process {
  store: Store;
  queue: JobQueue;
  bus: EventBus;
  documents: DocumentAgentService;
  runner: StackRunner;
  llm: ReturnType<typeof createScriptedLlm>;
  close(): Promise<void>;
}

const opened: Process[] = [];

afterEach(async () => {
  for (const process of opened.splice(0)) await process.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The scripted stack model, `reply` deciding each turn from the one it would give. */
function model(reply: (turn: ModelTurn, request: LlmConverseRequest) => Promise<ModelTurn>) {
  const steps: ScriptedStep[] = Array.from({ length: 24 }, () => ({
    node: 'stack_extraction' as const,
    reply: (request: LlmConverseRequest) =>
      reply(stackModelTurn(request.messages as ModelMessage[]), request),
  }));
  return createScriptedLlm(steps);
}

async function open(
  llm: ReturnType<typeof createScriptedLlm>,
  options: { attempts?: number } = {},
): Promise<Process> {
  const store = await createLibsqlStore({ url });
  // A short lease: a dead worker's job is taken over in about a second.
  const queue = createEmbeddedJobQueue({ store, leaseMs: 600, pollMs: 50 });
  const bus = createEmbeddedEventBus({ store, pollMs: 50 });
  const documents = new DocumentAgentService({
    store,
    llm,
    events: bus,
    readDocument: (file) => extractDocument(file.bytes, file),
  });
  const runner = new StackRunner({
    store,
    documents,
    queue,
    events: bus,
    runsPerTenant: 2,
    log: createLogger('error'),
    backoffMs: 20,
    ...options,
  });
  let closed = false;
  const process: Process = {
    store,
    queue,
    bus,
    documents,
    runner,
    llm,
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

async function collect(events: AsyncIterable<StackStreamEvent>) {
  const out: StackStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Two invoices of the caller: their ids. */
async function uploadInvoices(process: Process): Promise<string[]> {
  const ids: string[] = [];
  for (const doc of [0, 1].map(invoiceVariant)) {
    const document = await process.documents.uploadDocument(caller, {
      bytes: await renderPdf(doc.layout),
      fileName: doc.fileName,
      mimeType: doc.mimeType,
    });
    ids.push(document.id);
  }
  return ids;
}

/** Which leases of the run (the stack's lock, the tenant's slots) are still held in the store. */
async function leasesHeld(store: Store, stackId: string): Promise<string[]> {
  const keys = [
    `document-run:stack:${stackId}`,
    'tenant-slot:document-run:0',
    'tenant-slot:document-run:1',
  ];
  const held = await Promise.all(
    keys.map(async (key) => ((await store.idempotency.get(caller.tenantId, key)) ? key : null)),
  );
  return held.filter((key): key is string => key !== null);
}

const calls = (turn: ModelTurn) => (turn.toolCalls ?? []).map((call) => call.name);

describe('stack runs as jobs', () => {
  it('a stack whose process dies after one row is finished by another, told the row is kept', async () => {
    let reached!: () => void;
    const atCompletion = new Promise<void>((resolve) => (reached = resolve));
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    // A saves the columns and the first document's row only, then hangs on the turn that
    // would complete the table, and dies.
    const a = await open(
      model(async (turn) => {
        const names = calls(turn);
        if (names.includes('define_columns')) {
          return { toolCalls: (turn.toolCalls ?? []).slice(0, 2) };
        }
        if (names.includes('complete_table')) {
          reached();
          await blocked;
          throw new Error('the process is gone');
        }
        return turn;
      }),
    );
    const prompts: string[] = [];
    const b = await open(
      model(async (turn, request) => {
        const first = request.messages[0];
        if (first?.role === 'user') prompts.push(first.text);
        return turn;
      }),
    );
    const ids = await uploadInvoices(a);

    const started = await a.runner.start(caller, { name: 'Invoices', documentIds: ids });
    a.runner.serve();
    // Process B follows the run on the bus from the start, as GET /events would.
    const followed = collect(await b.documents.followStack(caller, started.record.id));
    await atCompletion;
    const saved = await a.store.stacks.listRows(caller.tenantId, started.record.id);
    expect(saved.map((row) => row.documentId)).toEqual([ids[0]]);

    // A dies: it renews nothing more, and its hanging handler is left to the void.
    haltEmbeddedJobQueue(a.queue);
    a.runner.close();
    b.runner.serve();

    const events = await followed;
    expect(events.at(-1)).toEqual({
      complete: true,
      stack_id: started.record.id,
      cost: expect.any(Number),
    });
    const done = await b.store.stacks.get(caller.tenantId, started.record.id);
    expect(done).toMatchObject({ status: 'completed', error: null });
    const rows = await b.store.stacks.listRows(caller.tenantId, started.record.id);
    expect(rows.map((row) => row.documentId)).toEqual(ids);
    // B was told what A saved, so a model that follows it extracts only the missing row.
    expect(prompts[0]).toContain('An earlier run stopped after saving the rows of 1 document(s)');
    expect(prompts[0]).toContain('The columns are defined already: keep them.');
    const job = await b.queue.state(caller.tenantId, STACK_RUN_QUEUE, started.runId);
    expect(job).toMatchObject({ status: 'completed', attempts: 2 });
    // The stack's lock and the tenant's slot are free again (B freed what A had claimed).
    expect(await leasesHeld(b.store, started.record.id)).toEqual([]);

    // A completed stack is never run again: a late attempt finishes without a model call.
    const turns = b.llm.conversations.length;
    const late = await b.documents.runStackJob(
      {
        runId: 'late-run',
        tenantId: caller.tenantId,
        userId: caller.userId,
        stackId: done?.id ?? '',
      },
      { number: 3, signal: new AbortController().signal },
    );
    expect(late).toEqual({ end: 'finished' });
    expect(b.llm.conversations.length).toBe(turns);
    expect(await b.store.stacks.listRows(caller.tenantId, started.record.id)).toEqual(rows);
    expect(await leasesHeld(b.store, started.record.id)).toEqual([]);
    unblock();
  });

  it('a stack whose attempts all fail is marked failed with the reason', async () => {
    const p = await open(
      model(async () => {
        throw new Error('the model is down');
      }),
      { attempts: 2 },
    );
    p.runner.serve();
    const ids = await uploadInvoices(p);
    const started = await p.runner.start(caller, { documentIds: ids });
    const events = await collect(started.events);
    expect(events.at(-1)).toMatchObject({ complete: true, stack_id: started.record.id });
    const failed = await p.store.stacks.get(caller.tenantId, started.record.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^The run stopped 2 times and was given up: /);
    expect(events).toContainEqual({ text: failed?.error });
    expect(await leasesHeld(p.store, started.record.id)).toEqual([]);
  });
});
