// The document extraction routes through createRoute: uploads, the SSE stream of an
// extraction and of a correction, reads, stacks and their CSV, tenant and user scoping, billing
// and the LangFuse trace. The model is a loopback Gemini API that the server's real SDK talks to,
// answering function calls with the scripted document model (it reads only the conversation).
import {
  DocumentExtractionDetail,
  DocumentExtractionList,
  DocumentList,
  ErrorResponse,
  ExtractionStreamEvent,
  StackList,
  StackStreamEvent,
  StackView,
  UploadDocumentResponse,
} from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import {
  geminiTurnResponse,
  INVOICE,
  invoiceVariant,
  isToolCallingRequest,
  LAB_REPORT,
  renderDocx,
  renderPdf,
  type GeminiToolRequest,
  type ModelTurn,
} from '@tandem/documents/testing';
import {
  startLangfuseCaptureServer,
  type LangfuseCaptureServer,
} from '@tandem/observability/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { uploadFile, uploadInvoice as uploadInvoiceAs } from '../../../test/documents';
import { request, sseMessages, tenantWithKey, testRuntime } from '../../../test/harness';
import { GET as getDocuments } from '../documents/route';
import { GET as getStack } from '../stacks/[stackId]/route';
import { GET as listStacks, POST as createStack } from '../stacks/route';
import { POST as correct } from './[extractionId]/correct/route';
import { GET as getExtraction } from './[extractionId]/route';
import { GET as listExtractions, POST as createExtraction } from './route';

let gemini: FakeHttpServer;
let runtime: Runtime;
let key: string;
let tenantId: string;
/** Turns the loopback model gives instead of its own, in order (attacks, faults). */
const overrides: ((body: GeminiToolRequest) => ModelTurn)[] = [];

beforeAll(async () => {
  gemini = await startFakeHttpServer((r) => {
    if (!isToolCallingRequest(r.body))
      return { status: 400, body: { error: { message: 'not a tool call' } } };
    return { body: geminiTurnResponse(r.body, overrides.shift()?.(r.body)) };
  });
});
afterAll(() => gemini.close());

beforeEach(async () => {
  overrides.length = 0;
  runtime = await testRuntime({
    GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
    GEMINI_BASE_URL: gemini.url,
  });
  ({ key, tenantId } = await tenantWithKey(runtime.store));
});
afterEach(() => runtime.store.close());

const upload = (bytes: Uint8Array, name: string, type: string, as = key) =>
  uploadFile(runtime, as, { bytes, name, type });

const uploadInvoice = (as = key) => uploadInvoiceAs(runtime, as);

/** The SSE body as its events: each `data:` line parsed, comments left out. */
const events = async (res: Response): Promise<unknown[]> =>
  (await sseMessages(res)).map((message) => message.data);

const post = (body: unknown, as = key) =>
  createExtraction.withRuntime(runtime)(
    request('/api/extractions', { method: 'POST', key: as, body }),
  );

const detail = async (id: string, as = key) => {
  const res = await getExtraction.withRuntime(runtime)(
    request(`/api/extractions/${id}`, { key: as }),
    {
      params: Promise.resolve({ extractionId: id }),
    },
  );
  return { status: res.status, body: (await res.json()) as unknown };
};

const sendCorrection = (id: string, message: string, as = key) =>
  correct.withRuntime(runtime)(
    request(`/api/extractions/${id}/correct`, { method: 'POST', key: as, body: { message } }),
    { params: Promise.resolve({ extractionId: id }) },
  );

describe('POST /api/extractions', () => {
  it('streams exactly the spec events while the agent writes, completes, bills and lists', async () => {
    const document = await uploadInvoice();
    expect(document).toMatchObject({
      pageCount: 1,
      mimeType: 'application/pdf',
      fileName: INVOICE.fileName,
    });

    const res = await post({ documentId: document.id });
    expect(res.status).toBe(200);
    const stream = await events(res);
    for (const event of stream) {
      expect(ExtractionStreamEvent.safeParse(event).success, JSON.stringify(event)).toBe(true);
      expect(['text', 'input,tool', 'complete,cost,extraction_id']).toContain(
        Object.keys(event as object)
          .sort()
          .join(','),
      );
    }
    const done = stream.at(-1) as { complete: true; extraction_id: string; cost: number };
    expect(done.complete).toBe(true);
    expect(done.cost).toBeGreaterThan(0);
    expect(stream).toContainEqual({ tool: 'get_document_text', input: {} });
    expect(stream).toContainEqual({
      tool: 'identify_document',
      input: { document_type: 'invoice' },
    });

    const got = await detail(done.extraction_id);
    expect(got.status).toBe(200);
    const x = DocumentExtractionDetail.parse(got.body);
    expect(x).toMatchObject({
      status: 'completed',
      documentType: 'invoice',
      fields: INVOICE.truth,
      error: null,
      document: { id: document.id, title: 'invoice-INV-2024-0042' },
    });
    expect(x.cost).toBeCloseTo(done.cost, 9);
    expect(x.history.map((h) => h.tool)).toEqual([
      'identify_document',
      'extract_fields',
      'complete_extraction',
    ]);

    // Every model call is the tenant's DOCUMENT_EXTRACTION usage, and sums to the record's cost.
    await expect.poll(async () => (await runtime.store.tokenUsage.list(tenantId)).length).toBe(4);
    const usage = await runtime.store.tokenUsage.list(tenantId);
    expect(
      usage.every((u) => u.actionType === 'DOCUMENT_EXTRACTION' && u.provider === 'GOOGLE'),
    ).toBe(true);
    expect(usage.every((u) => u.userId === 'user-1')).toBe(true);
    expect(usage.reduce((sum, u) => sum + u.costMicroUsd, 0)).toBe(x.costMicroUsd);
    // The model saw the tools declared, and the document text only through a tool.
    const firstCall = gemini.requests.at(-4)?.body as GeminiToolRequest & {
      contents: { parts: { text?: string }[] }[];
    };
    expect(firstCall.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toEqual([
      'get_document_text',
      'get_current_extraction',
      'identify_document',
      'extract_fields',
      'update_field',
      'remove_field',
      'complete_extraction',
    ]);
    expect(JSON.stringify(firstCall.contents)).not.toContain('Acme');

    const list = DocumentExtractionList.parse(
      await (
        await listExtractions.withRuntime(runtime)(request('/api/extractions', { key }))
      ).json(),
    );
    expect(list.extractions.map((e) => e.id)).toEqual([x.id]);
    const documents = DocumentList.parse(
      await (await getDocuments.withRuntime(runtime)(request('/api/documents', { key }))).json(),
    );
    expect(documents.documents.map((d) => d.id)).toEqual([document.id]);
  });

  it('takes the file inline (base64), and a schema the fields must match', async () => {
    const bytes = await renderDocx(LAB_REPORT.layout);
    const res = await post({
      upload: {
        fileName: LAB_REPORT.fileName,
        contentType: LAB_REPORT.mimeType,
        dataBase64: Buffer.from(bytes).toString('base64'),
      },
      schema: {
        type: 'object',
        properties: { report_number: { type: 'string' }, results: { type: 'array' } },
        required: ['report_number', 'results'],
      },
      instructions: 'Keep the reference ranges as written.',
    });
    const stream = await events(res);
    const { extraction_id } = stream.at(-1) as { extraction_id: string };
    const x = DocumentExtractionDetail.parse((await detail(extraction_id)).body);
    expect(x).toMatchObject({
      status: 'completed',
      documentType: 'lab_report',
      fields: LAB_REPORT.truth,
    });
    expect(x.schema).toMatchObject({ required: ['report_number', 'results'] });
    expect(x.document?.mimeType).toBe(LAB_REPORT.mimeType);
  });

  it('refuses bad requests with the contract errors', async () => {
    const document = await uploadInvoice();
    const code = async (res: Response) => [
      res.status,
      ErrorResponse.parse(await res.json()).error.code,
    ];
    expect(await code(await post({}))).toEqual([400, 'VALIDATION_ERROR']);
    expect(
      await code(
        await post({ documentId: document.id, upload: { fileName: 'a.txt', dataBase64: 'YQ==' } }),
      ),
    ).toEqual([400, 'VALIDATION_ERROR']);
    expect(await code(await post({ documentId: 'missing' }))).toEqual([404, 'NOT_FOUND']);
    expect(
      await code(await post({ documentId: document.id, schema: { type: 'object', $ref: '#/x' } })),
    ).toEqual([400, 'BAD_REQUEST']);
    expect(
      await code(
        await post({
          upload: {
            fileName: 'x.bin',
            dataBase64: Buffer.from([0, 1, 2, 3, 255]).toString('base64'),
          },
        }),
      ),
    ).toEqual([400, 'BAD_REQUEST']);
    expect(await code(await post({ documentId: document.id }, 'tdm_not-a-key'))).toEqual([
      401,
      'UNAUTHORIZED',
    ]);
    expect(await code(await sendCorrection('missing', 'the total is 1'))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect((await runtime.store.documentExtractions.list(tenantId)).items).toEqual([]);
  });

  it('answers 503 without a model, before storing anything', async () => {
    await runtime.close();
    runtime = await testRuntime();
    ({ key, tenantId } = await tenantWithKey(runtime.store));
    const document = await uploadInvoice();
    const res = await post({ documentId: document.id });
    expect(res.status).toBe(503);
    expect(ErrorResponse.parse(await res.json()).error.code).toBe('LLM_NOT_CONFIGURED');
    expect((await runtime.store.documentExtractions.list(tenantId)).items).toEqual([]);
  });
});

describe('POST /api/extractions/{id}/correct', () => {
  it('changes the one value the user names and leaves every other one', async () => {
    const document = await uploadInvoice();
    const first = await events(await post({ documentId: document.id }));
    const { extraction_id: id } = first.at(-1) as { extraction_id: string };
    const before = DocumentExtractionDetail.parse((await detail(id)).body);

    const res = await sendCorrection(id, 'the total is 1,240.50, not 1,204.50');
    expect(res.status).toBe(200);
    const stream = await events(res);
    expect(stream).toContainEqual({
      tool: 'update_field',
      input: { path: 'totals.total', value: 1240.5, confidence: 1 },
    });
    expect(stream.at(-1)).toMatchObject({ complete: true, extraction_id: id });
    const after = DocumentExtractionDetail.parse((await detail(id)).body);
    expect(after.fields).toEqual({
      ...before.fields,
      totals: { subtotal: 1003.75, vat: 200.75, total: 1240.5 },
    });
    expect(after.status).toBe('completed');
    expect(after.history.at(-1)).toMatchObject({
      tool: 'update_field',
      input: { path: 'totals.total', value: 1240.5 },
    });
    expect(after.costMicroUsd).toBeGreaterThan(before.costMicroUsd);
  });
});

describe('scoping', () => {
  it("no route and no tool argument reaches another tenant's or user's records", async () => {
    // Tenant B's document and completed extraction.
    const other = await tenantWithKey(runtime.store);
    const theirs = await uploadInvoice(other.key);
    const theirRun = await events(await post({ documentId: theirs.id }, other.key));
    const { extraction_id: theirId } = theirRun.at(-1) as { extraction_id: string };
    const theirsBefore = await runtime.store.documentExtractions.get(other.tenantId, theirId);

    // By route: 404 for a record of another tenant, as for none.
    expect((await detail(theirId)).status).toBe(404);
    expect((await sendCorrection(theirId, 'the total is 0')).status).toBe(404);
    expect((await post({ documentId: theirs.id })).status).toBe(404);
    // Another user of the same tenant sees nothing of this user's either.
    const colleague = await runtime.store.apiKeys.create(tenantId, {
      userId: 'user-2',
      name: 'colleague',
    });
    const mine = await uploadInvoice();
    expect((await post({ documentId: mine.id }, colleague.plaintextKey)).status).toBe(404);

    // By tool argument: a model that names the other tenant's ids still reads and writes only
    // this run's own document and extraction (the tools take no ids).
    const seen: string[] = [];
    overrides.push(
      () => ({
        toolCalls: [
          {
            name: 'get_document_text',
            args: { document_id: theirs.id, tenant_id: other.tenantId },
          },
        ],
      }),
      (body) => {
        const last = body.contents?.at(-1)?.parts?.[0]?.functionResponse?.response?.output;
        seen.push(String(last));
        return {
          toolCalls: [
            {
              name: 'extract_fields',
              args: { fields: { total: 1 }, confidences: { total: 1 }, extraction_id: theirId },
            },
            {
              name: 'update_field',
              args: {
                path: 'totals.total',
                value: 0,
                confidence: 1,
                extraction_id: theirId,
                user_id: 'user-1',
              },
            },
            { name: 'complete_extraction', args: { extraction_id: theirId } },
          ],
        };
      },
      () => ({ text: 'Done.' }),
    );
    const mineDoc = await runtime.store.documents.create(tenantId, {
      userId: 'user-1',
      fileName: 'mine.txt',
      title: 'Mine',
      mimeType: 'text/plain',
      sizeBytes: 10,
      pages: [{ number: 1, text: 'Total: 1' }],
    });
    const stream = await events(await post({ documentId: mineDoc.id }));
    const { extraction_id: myId } = stream.at(-1) as { extraction_id: string };
    expect(seen[0]).toContain('Total: 1');
    expect(seen[0]).not.toContain('Acme');
    const myExtraction = await runtime.store.documentExtractions.get(tenantId, myId);
    expect(myExtraction?.fields).toEqual({ total: 1 });
    expect(await runtime.store.documentExtractions.get(other.tenantId, theirId)).toEqual(
      theirsBefore,
    );
  });
});

describe('stacks', () => {
  it('builds one table from several invoices, as JSON and CSV', async () => {
    const ids: string[] = [];
    for (const doc of [0, 1].map(invoiceVariant)) {
      const res = await upload(await renderPdf(doc.layout), doc.fileName, doc.mimeType);
      ids.push(UploadDocumentResponse.parse(await res.json()).document.id);
    }
    const res = await createStack.withRuntime(runtime)(
      request('/api/stacks', { method: 'POST', key, body: { name: 'Invoices', documentIds: ids } }),
    );
    const stream = await events(res);
    for (const event of stream) expect(StackStreamEvent.safeParse(event).success).toBe(true);
    const { stack_id: stackId } = stream.at(-1) as { stack_id: string };

    const read = (format?: string) =>
      getStack.withRuntime(runtime)(
        request(`/api/stacks/${stackId}${format ? `?format=${format}` : ''}`, { key }),
        { params: Promise.resolve({ stackId }) },
      );
    const view = StackView.parse(await (await read()).json());
    expect(view).toMatchObject({ name: 'Invoices', status: 'completed', documentIds: ids });
    expect(view.rows.map((r) => r.cells.invoice_number)).toEqual([
      'INV-2024-0100',
      'INV-2024-0101',
    ]);
    const csv = await read('csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^_document,invoice_number,invoice_date,currency,vendor_name,/);
    expect(lines).toHaveLength(3);
    const list = StackList.parse(
      await (await listStacks.withRuntime(runtime)(request('/api/stacks', { key }))).json(),
    );
    expect(list.stacks.map((s) => s.id)).toEqual([stackId]);
    const usage = await runtime.store.tokenUsage.list(tenantId);
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((u) => u.actionType === 'STACK_EXTRACTION')).toBe(true);

    const stranger = await tenantWithKey(runtime.store);
    const hidden = await getStack.withRuntime(runtime)(
      request(`/api/stacks/${stackId}`, { key: stranger.key }),
      {
        params: Promise.resolve({ stackId }),
      },
    );
    expect(hidden.status).toBe(404);
    const refused = await createStack.withRuntime(runtime)(
      request('/api/stacks', { method: 'POST', key: stranger.key, body: { documentIds: ids } }),
    );
    expect(refused.status).toBe(404);
  });
});

describe('tracing', () => {
  let langfuse: LangfuseCaptureServer;
  beforeAll(async () => {
    langfuse = await startLangfuseCaptureServer();
  });
  afterAll(() => langfuse.close());

  it('traces each run in LangFuse: the run, its tool spans and a generation per model call', async () => {
    await runtime.close();
    runtime = await testRuntime({
      GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
      GEMINI_BASE_URL: gemini.url,
      LANGFUSE_PUBLIC_KEY: 'pk-lf-test',
      LANGFUSE_SECRET_KEY: 'sk-lf-test',
      LANGFUSE_BASE_URL: langfuse.baseUrl,
    });
    ({ key, tenantId } = await tenantWithKey(runtime.store));
    const document = await uploadInvoice();
    const stream = await events(await post({ documentId: document.id }));
    const { extraction_id: id } = stream.at(-1) as { extraction_id: string };
    await runtime.usage.drain();
    await runtime.tracing.flush();
    await langfuse.waitFor((s) =>
      s.spans.some((span) => span.name === `document-extraction-${id}`),
    );
    const root = langfuse.spans.find((span) => span.name === `document-extraction-${id}`);
    const spans = langfuse.trace(root?.traceId ?? '');
    expect(spans.filter((s) => s.name === 'extractDocument')).toHaveLength(4);
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'tool:get_document_text',
        'tool:extract_fields',
        'tool:complete_extraction',
      ]),
    );
    const usage = await runtime.store.tokenUsage.list(tenantId);
    expect(new Set(usage.map((u) => u.traceId))).toEqual(new Set([root?.traceId]));
  });
});
