// The document extraction agent end to end below the routes: the LangGraph tool-calling loop, a
// scripted tool-calling model (through the real LLM client: usage events, retries), the tools,
// the knowledge extractors (PDF text layer, DOCX, OCR of a scan) and a real libSQL store.
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import type { ExtractionStreamEvent } from '@tandem/contracts';
import {
  CLAIM,
  documentModelTurn,
  INVOICE,
  invoiceVariant,
  LAB_REPORT,
  renderDocx,
  renderPdf,
  renderScannedPdf,
  stackModelTurn,
  type DemoDocument,
  type ModelMessage,
} from './testing';
import { extractDocument } from '@tandem/knowledge/ingestion';
import type { UsageEvent } from '@tandem/observability';
import { createLibsqlStore, type Store } from '@tandem/store';
import { chromium } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type LlmConverseRequest } from '@tandem/llm';
import { ScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { stackToCsv } from './stack-csv';
import { DocumentAgentService, type Caller } from './document-agent-service';

const caller: Caller = { tenantId: 'tenant-a', userId: 'user-a' };

let store: Store;
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterEach(() => store.close());

/** The scripted document model: as many turns as a run needs, each read from the conversation. */
const modelTurns = (
  count: number,
  node: 'document_extraction' | 'stack_extraction' = 'document_extraction',
): ScriptedStep[] =>
  Array.from({ length: count }, () => ({
    node,
    reply: (request: LlmConverseRequest) =>
      (node === 'stack_extraction' ? stackModelTurn : documentModelTurn)(
        request.messages as ModelMessage[],
      ),
  }));

function service(llm: ScriptedLlm, options: { maxTurns?: number; textBudget?: number } = {}) {
  return new DocumentAgentService({
    store,
    llm,
    readDocument: (file) => extractDocument(file.bytes, file),
    ...options,
  });
}

async function collect<E>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const upload = async (agent: DocumentAgentService, doc: DemoDocument, bytes: Uint8Array) =>
  agent.uploadDocument(caller, { bytes, fileName: doc.fileName, mimeType: doc.mimeType });

/** Only the spec's three flat shapes, and `complete` last. */
function expectSpecEvents(events: ExtractionStreamEvent[], extractionId: string): void {
  for (const event of events) {
    const keys = Object.keys(event).sort().join(',');
    expect(['text', 'input,tool', 'complete,cost,extraction_id']).toContain(keys);
  }
  expect(events.at(-1)).toEqual({
    complete: true,
    extraction_id: extractionId,
    cost: expect.any(Number),
  });
  expect(events.filter((e) => 'complete' in e)).toHaveLength(1);
}

describe('document extraction agent', () => {
  it('reads the invoice, writes validated fields and completes; every call billed', async () => {
    const usage: UsageEvent[] = [];
    const llm = new ScriptedLlm(modelTurns(4), { usageHook: (e) => void usage.push(e) });
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    expect(document).toMatchObject({ pageCount: 1, mimeType: 'application/pdf', userId: 'user-a' });

    const run = await agent.startExtraction(caller, { documentId: document.id });
    const events = await collect(run.events);
    await run.done;
    expectSpecEvents(events, run.record.id);
    expect(events.filter((e) => 'tool' in e).map((e) => ('tool' in e ? e.tool : ''))).toEqual([
      'get_document_text',
      'identify_document',
      'extract_fields',
      'complete_extraction',
    ]);
    expect(events.find((e) => 'tool' in e && e.tool === 'extract_fields')).toMatchObject({
      input: { fields: INVOICE.truth },
    });
    expect(events.filter((e) => 'text' in e).at(-1)).toEqual({
      text: expect.stringMatching(/^I extracted 27 values from this invoice/),
    });

    const stored = await store.documentExtractions.get(caller.tenantId, run.record.id);
    expect(stored).toMatchObject({
      status: 'completed',
      documentType: 'invoice',
      fields: INVOICE.truth,
      error: null,
    });
    expect(stored?.confidences).toMatchObject({
      totals: { total: 0.95 },
      vendor: { name: 0.95 },
      // Printed day first (13/04/2024): the model is unsure which part is the month.
      due_date: 0.6,
    });
    expect(stored?.tokens).toBeGreaterThan(0);
    expect(stored?.costMicroUsd).toBeGreaterThan(0);
    const last = events.at(-1);
    expect(last && 'cost' in last ? last.cost : 0).toBeCloseTo(
      (stored?.costMicroUsd ?? 0) / 1e6,
      9,
    );
    expect(
      (await store.documentExtractions.listWrites(caller.tenantId, run.record.id)).map(
        (w) => w.tool,
      ),
    ).toEqual(['identify_document', 'extract_fields', 'complete_extraction']);
    expect(usage).toHaveLength(4);
    expect(
      usage.every(
        (u) => u.actionType === 'DOCUMENT_EXTRACTION' && u.node === 'document_extraction',
      ),
    ).toBe(true);
    expect(
      usage.every((u) => u.context.tenantId === 'tenant-a' && u.context.userId === 'user-a'),
    ).toBe(true);
    llm.assertDone();
  });

  it('returns a validation failure to the model, which fixes its call', async () => {
    const fields = { invoice_number: 'INV-2024-0042', total: 1204.5 };
    let sawError = '';
    const llm = new ScriptedLlm([
      {
        node: 'document_extraction',
        reply: { toolCalls: [{ name: 'get_document_text', args: {} }] },
      },
      {
        node: 'document_extraction',
        reply: {
          toolCalls: [
            {
              name: 'extract_fields',
              args: { fields, confidences: { invoice_number: 0.9, total: 1.5 } },
            },
          ],
        },
      },
      {
        node: 'document_extraction',
        reply: (request) => {
          const last = request.messages.at(-1);
          sawError = last?.role === 'tool' && last.isError ? last.content : '';
          return {
            toolCalls: [
              {
                name: 'extract_fields',
                args: { fields, confidences: { invoice_number: 0.9, total: 0.7 } },
              },
              { name: 'complete_extraction', args: {} },
            ],
          };
        },
      },
      { node: 'document_extraction', reply: { text: 'Saved the invoice number and total.' } },
    ]);
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const run = await agent.startExtraction(caller, { documentId: document.id });
    await collect(run.events);
    await run.done;
    expect(sawError).toMatch(/at most 1[\s\S]*confidences\.total/);
    expect(await store.documentExtractions.get(caller.tenantId, run.record.id)).toMatchObject({
      status: 'completed',
      fields,
      confidences: { invoice_number: 0.9, total: 0.7 },
    });
    // The refused call left no trace in the history.
    expect(
      (await store.documentExtractions.listWrites(caller.tenantId, run.record.id)).map(
        (w) => w.tool,
      ),
    ).toEqual(['extract_fields', 'complete_extraction']);
    llm.assertDone();
  });

  it('a correction in plain words updates one path and leaves the rest', async () => {
    const llm = new ScriptedLlm(modelTurns(4));
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const first = await agent.startExtraction(caller, { documentId: document.id });
    await collect(first.events);
    await first.done;
    const before = await store.documentExtractions.get(caller.tenantId, first.record.id);

    llm.push(...modelTurns(3));
    const run = await agent.startCorrection(
      caller,
      first.record.id,
      'the total is 1,240.50, not 1,204.50',
    );
    const events = await collect(run.events);
    await run.done;
    expectSpecEvents(events, first.record.id);
    expect(events.filter((e) => 'tool' in e)).toEqual([
      { tool: 'get_current_extraction', input: {} },
      { tool: 'update_field', input: { path: 'totals.total', value: 1240.5, confidence: 1 } },
    ]);
    const after = await store.documentExtractions.get(caller.tenantId, first.record.id);
    expect(after?.fields).toEqual({
      ...INVOICE.truth,
      totals: { ...(INVOICE.truth.totals as object), total: 1240.5 },
    });
    expect(after?.confidences).toEqual({
      ...before?.confidences,
      totals: { subtotal: 0.95, vat: 0.95, total: 1 },
    });
    expect(after?.status).toBe('completed');
    expect(after && before && after.costMicroUsd > before.costMicroUsd).toBe(true);
    const writes = await store.documentExtractions.listWrites(caller.tenantId, first.record.id);
    expect(writes.at(-1)).toMatchObject({
      seq: 4,
      tool: 'update_field',
      input: { path: 'totals.total' },
    });
    llm.assertDone();
  });

  it('a crash mid-run keeps the writes made so far and the status in progress', async () => {
    const llm = new ScriptedLlm(
      [
        ...modelTurns(2),
        {
          node: 'document_extraction',
          error: new ProviderError('Gemini API error 500', { kind: 'http', status: 500 }),
        },
      ],
      { maxRetries: 0 },
    );
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const run = await agent.startExtraction(caller, { documentId: document.id });
    const events = await collect(run.events);
    await run.done;
    expectSpecEvents(events, run.record.id);
    expect(events.at(-2)).toEqual({
      text: expect.stringMatching(/^The run stopped: .*send a message to continue\.$/),
    });
    const stored = await store.documentExtractions.get(caller.tenantId, run.record.id);
    expect(stored).toMatchObject({
      status: 'in_progress',
      fields: INVOICE.truth,
      documentType: 'invoice',
    });
    expect(stored?.error).toMatch(/The run stopped/);

    // Sending a message goes on from there: the model completes what is saved.
    llm.push(
      {
        node: 'document_extraction',
        reply: { toolCalls: [{ name: 'complete_extraction', args: {} }] },
      },
      { node: 'document_extraction', reply: { text: 'Completed.' } },
    );
    const resumed = await agent.startCorrection(caller, run.record.id, 'please finish');
    await collect(resumed.events);
    await resumed.done;
    expect(await store.documentExtractions.get(caller.tenantId, run.record.id)).toMatchObject({
      status: 'completed',
      error: null,
    });
  });

  it('stops a model that never stops calling tools, and marks the extraction failed', async () => {
    const llm = new ScriptedLlm(
      Array.from({ length: 3 }, () => ({
        node: 'document_extraction' as const,
        reply: { toolCalls: [{ name: 'get_current_extraction', args: {} }] },
      })),
    );
    const agent = service(llm, { maxTurns: 3 });
    const document = await upload(agent, LAB_REPORT, await renderDocx(LAB_REPORT.layout));
    const run = await agent.startExtraction(caller, { documentId: document.id });
    const events = await collect(run.events);
    await run.done;
    expect(events.at(-2)).toEqual({
      text: 'The agent stopped after 3 steps without completing the extraction.',
    });
    expect(await store.documentExtractions.get(caller.tenantId, run.record.id)).toMatchObject({
      status: 'failed',
    });
  });

  it('pages a long document and reads a Word file', async () => {
    const llm = new ScriptedLlm(modelTurns(8));
    const agent = service(llm, { textBudget: 120 });
    const document = await upload(agent, LAB_REPORT, await renderDocx(LAB_REPORT.layout));
    // The whole report is one page of a DOCX; split it so the budget pages it.
    const long = await store.documents.create(caller.tenantId, {
      userId: caller.userId,
      fileName: 'long.docx',
      title: 'Lab report',
      mimeType: document.mimeType,
      sizeBytes: document.sizeBytes,
      pages:
        (document.characters > 0
          ? await store.documents.get(caller.tenantId, document.id)
          : null
        )?.pages[0]?.text
          .split('\n## ')
          .map((text, i) => ({ number: i + 1, text: i === 0 ? text : `## ${text}` })) ?? [],
    });
    const run = await agent.startExtraction(caller, { documentId: long.id });
    const events = await collect(run.events);
    await run.done;
    expect(
      events
        .filter((e) => 'tool' in e && e.tool === 'get_document_text')
        .map((e) => ('input' in e ? e.input : null)),
    ).toEqual([{}, { page: 2 }, { page: 3 }, { page: 4 }]);
    expect((await store.documentExtractions.get(caller.tenantId, run.record.id))?.fields).toEqual(
      LAB_REPORT.truth,
    );
  });

  it('refuses what it cannot do before anything starts', async () => {
    const agent = service(new ScriptedLlm());
    await expect(agent.startExtraction(caller, { documentId: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    // Another user of the same tenant, and another tenant, see no such document.
    await expect(
      agent.startExtraction({ ...caller, userId: 'user-b' }, { documentId: document.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      agent.startExtraction(
        { tenantId: 'tenant-b', userId: 'user-a' },
        { documentId: document.id },
      ),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      agent.startExtraction(caller, { documentId: document.id, schema: { type: 'array' } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      agent.startExtraction(caller, {
        documentId: document.id,
        schema: { type: 'object', anyOf: [] },
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/anyOf/) });
    await expect(agent.startCorrection(caller, 'nope', 'x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await store.documentExtractions.list(caller.tenantId)).items).toEqual([]);
  });

  it('runs one at a time per extraction', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const llm = new ScriptedLlm([
      {
        node: 'document_extraction',
        reply: async () => {
          await held;
          return { text: 'Waiting done.' };
        },
      },
    ]);
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const run = await agent.startExtraction(caller, { documentId: document.id });
    await expect(
      agent.startCorrection(caller, run.record.id, 'the total is 1'),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    release();
    await collect(run.events);
    await run.done;
  });

  it('checks fields against the user schema and returns the misses to the model', async () => {
    const schema = {
      type: 'object',
      properties: { invoice_number: { type: 'string' }, total: { type: 'number' } },
      required: ['invoice_number', 'total'],
    };
    const seen: string[] = [];
    const llm = new ScriptedLlm([
      {
        node: 'document_extraction',
        reply: {
          toolCalls: [
            {
              name: 'extract_fields',
              args: { fields: { total: '1,204.50' }, confidences: { total: 0.9 } },
            },
          ],
        },
      },
      {
        node: 'document_extraction',
        reply: (request) => {
          const last = request.messages.at(-1);
          if (last?.role === 'tool') seen.push(last.content);
          return { text: 'I cannot match the schema.' };
        },
      },
    ]);
    const agent = service(llm);
    const document = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const run = await agent.startExtraction(caller, {
      documentId: document.id,
      schema,
      instructions: 'Only the totals',
    });
    expect(llm.conversations).toHaveLength(0);
    await collect(run.events);
    await run.done;
    expect(llm.conversations[0]?.messages[0]).toMatchObject({
      role: 'user',
      text: expect.stringMatching(/Only the totals[\s\S]*"required"/),
    });
    expect(seen[0]).toMatch(
      /do not match the user's schema:\n- invoice_number: .*\n- total: .*expected number/,
    );
    expect(await store.documentExtractions.get(caller.tenantId, run.record.id)).toMatchObject({
      status: 'failed',
      fields: {},
    });
  });
});

describe('document extraction of a scan', () => {
  it('reads a two-page scanned claim by OCR and extracts it', { timeout: 120_000 }, async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const bytes = await renderScannedPdf(CLAIM.layout, browser).finally(() => browser.close());
    const llm = new ScriptedLlm(modelTurns(4));
    const agent = service(llm);
    const document = await upload(agent, CLAIM, bytes);
    expect(document.pageCount).toBe(2);
    expect(document.warnings).toEqual(['Page(s) 1, 2 had no text layer and were read by OCR.']);
    const run = await agent.startExtraction(caller, { documentId: document.id });
    await collect(run.events);
    await run.done;
    expect(await store.documentExtractions.get(caller.tenantId, run.record.id)).toMatchObject({
      status: 'completed',
      documentType: 'insurance_claim',
      fields: CLAIM.truth,
    });
  });
});

describe('stacks', () => {
  it('extracts several invoices into one table, exported as CSV', async () => {
    const llm = new ScriptedLlm(modelTurns(6, 'stack_extraction'));
    const agent = service(llm);
    const variants = [0, 1, 2].map(invoiceVariant);
    const documents = [];
    for (const doc of variants)
      documents.push(await upload(agent, doc, await renderPdf(doc.layout)));
    const run = await agent.startStack(caller, {
      name: 'Q1 invoices',
      documentIds: documents.map((d) => d.id),
    });
    const events = await collect(run.events);
    await run.done;
    expect(events.at(-1)).toEqual({
      complete: true,
      stack_id: run.record.id,
      cost: expect.any(Number),
    });
    const tools = events.flatMap((e) => ('tool' in e ? [e.tool] : []));
    expect(tools).toEqual([
      'list_documents',
      'get_document_text',
      'get_document_text',
      'get_document_text',
      'define_columns',
      'extract_row',
      'extract_row',
      'extract_row',
      'complete_table',
    ]);
    const stack = await store.stacks.get(caller.tenantId, run.record.id);
    expect(stack?.status).toBe('completed');
    expect(stack?.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'invoice_number:string',
      'invoice_date:date',
      'currency:string',
      'vendor_name:string',
      'totals_subtotal:number',
      'totals_vat:number',
      'totals_total:number',
    ]);
    const rows = await store.stacks.listRows(caller.tenantId, run.record.id);
    expect(rows.map((r) => r.cells.totals_total)).toEqual(
      variants.map((v) => (v.truth.totals as { total: number }).total),
    );
    if (!stack) throw new Error('no stack');
    const csv = stackToCsv(stack, rows);
    expect(csv.split('\r\n')[0]).toBe(
      '_document,invoice_number,invoice_date,currency,vendor_name,totals_subtotal,totals_vat,totals_total',
    );
    expect(csv.split('\r\n')[1]).toBe(
      `${documents[0]?.id},INV-2024-0100,2024-01-10,GBP,Acme Supplies Ltd,100.25,20.05,120.3`,
    );
  });

  it('a taken-over run keeps the rows its predecessor saved: extract_row refuses them', async () => {
    // The script names the documents, known once uploaded: it reads them when it answers.
    const ids = { first: '', second: '' };
    const row = (which: keyof typeof ids, total: number): ScriptedStep => ({
      node: 'stack_extraction',
      reply: () => ({
        toolCalls: [
          {
            name: 'extract_row',
            args: { doc_id: ids[which], cells: { total }, confidences: { total: 0.8 } },
          },
        ],
      }),
    });
    const llm = new ScriptedLlm([
      row('first', 999),
      row('second', 2),
      { node: 'stack_extraction', reply: { toolCalls: [{ name: 'complete_table', args: {} }] } },
      { node: 'stack_extraction', reply: { text: 'Done.' } },
    ]);
    const agent = service(llm);
    const other = invoiceVariant(1);
    ids.first = (await upload(agent, INVOICE, await renderPdf(INVOICE.layout))).id;
    ids.second = (await upload(agent, other, await renderPdf(other.layout))).id;
    const stack = await agent.createStack(caller, {
      documentIds: [ids.first, ids.second],
      columns: [{ name: 'total', type: 'number' }],
    });
    // The attempt before saved the first row, then its process died.
    const saved = { total: 120.3 };
    await store.stacks.putRow(caller.tenantId, stack.id, {
      userId: caller.userId,
      documentId: ids.first,
      cells: saved,
      confidences: { total: 0.9 },
    });
    const end = await agent.runStackJob(
      { runId: 'takeover', tenantId: caller.tenantId, userId: caller.userId, stackId: stack.id },
      { number: 2, signal: new AbortController().signal },
    );
    expect(end).toEqual({ end: 'finished' });
    expect(JSON.stringify(llm.conversations[0]?.messages[0])).toContain(
      'An earlier run stopped after saving the rows of 1 document(s)',
    );
    expect(llm.conversations[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      isError: true,
      content: expect.stringMatching(/saved by an earlier run and is kept/),
    });
    const rows = await store.stacks.listRows(caller.tenantId, stack.id);
    expect(Object.fromEntries(rows.map((r) => [r.documentId, r.cells]))).toEqual({
      [ids.first]: saved,
      [ids.second]: { total: 2 },
    });
    expect((await store.stacks.get(caller.tenantId, stack.id))?.status).toBe('completed');
  });

  it("refuses a document outside the stack, even the same user's", async () => {
    const llm = new ScriptedLlm([
      {
        node: 'stack_extraction',
        reply: { toolCalls: [{ name: 'get_document_text', args: { doc_id: 'placeholder' } }] },
      },
      { node: 'stack_extraction', reply: { text: 'ok' } },
    ]);
    const agent = service(llm);
    const inStack = await upload(agent, INVOICE, await renderPdf(INVOICE.layout));
    const outside = await upload(agent, LAB_REPORT, await renderDocx(LAB_REPORT.layout));
    const steps = llm.remaining as ScriptedStep[];
    (steps[0] as { reply: unknown }).reply = {
      toolCalls: [{ name: 'get_document_text', args: { doc_id: outside.id } }],
    };
    const run = await agent.startStack(caller, { documentIds: [inStack.id] });
    await collect(run.events);
    await run.done;
    const answer = llm.conversations[1]?.messages.at(-1);
    expect(answer).toMatchObject({
      role: 'tool',
      isError: true,
      content: expect.stringMatching(/is not a document of this table/),
    });
    expect(JSON.stringify(llm.conversations[1]?.messages)).not.toContain('Lothian');
  });
});
