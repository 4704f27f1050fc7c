// @vitest-environment jsdom
// An extraction's download end to end, short of the browser's download itself: the live view
// (jsdom) shows the stored run, a click goes through the controller and the real API client to
// an HTTP server on loopback, and what would be saved is checked. jsdom cannot save files, so
// only the last step (object URL and the link's click) is observed instead of performed.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskExtractionsResponse } from '@tandem/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { mountLiveView } from './live-view-controller';
import { memoryStore } from './memory-store';
import { runKey, type RunState } from './run-state';

const TASK = '11111111-1111-4111-8111-111111111111';
const KEY = 'k-loopback';
const products = [
  { name: 'Kettle', price: 25 },
  { name: 'Mug', price: 8 },
];
const CSV = 'name,price\r\nKettle,25\r\nMug,8\r\n';

const answer: TaskExtractionsResponse = {
  taskId: TASK,
  aggregates: [
    {
      extractionId: 'products',
      data: products,
      items: 2,
      pages: 2,
      isPartial: false,
      schemaUsed: null,
      summary: '2 unique products from 2 pages, extraction_id=products',
      truncated: false,
    },
  ],
  results: [],
};

/** The route as the server answers it: JSON, the CSV of a list, 400 for a CSV of anything else. */
function route(req: IncomingMessage): { status: number; type: string; body: string } {
  const url = new URL(req.url ?? '/', 'http://loopback');
  if (
    url.pathname !== `/api/tasks/${TASK}/extractions` ||
    req.headers.authorization !== `Bearer ${KEY}`
  )
    return { status: 404, type: 'application/json', body: '{}' };
  const id = url.searchParams.get('extractionId');
  if (url.searchParams.get('format') === 'json')
    return { status: 200, type: 'application/json', body: JSON.stringify(answer) };
  if (id === 'products') return { status: 200, type: 'text/csv; charset=utf-8', body: CSV };
  const error = { code: 'VALIDATION_ERROR', message: `The data of ${id} is not a list.` };
  return { status: 400, type: 'application/json', body: JSON.stringify({ error }) };
}

const run: RunState = {
  tabId: 1,
  goal: 'List every product',
  status: 'completed',
  taskId: TASK,
  steps: [],
  result: 'Listed 2 products.',
  extractions: [
    { extractionId: 'products', items: 2, pages: 2, isPartial: false, summary: 'products' },
    // Its counts say a list but the server refuses its CSV: the refusal must reach the user.
    { extractionId: 'shop', items: 1, pages: 1, isPartial: false, summary: 'shop' },
  ],
  updatedAt: 1,
};

describe('downloading an extraction from the live view', () => {
  let server: Server;
  let serverUrl: string;
  const asked: { url: string; authorization: string | undefined }[] = [];
  const saved: { name: string; blob: Blob }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push({ url: req.url ?? '', authorization: req.headers.authorization });
      const { status, type, body } = route(req);
      res.writeHead(status, { 'content-type': type }).end(body);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  beforeEach(() => {
    // One live view per page, as in the popup: its ids are unique in the document.
    document.body.replaceChildren();
    asked.length = 0;
    saved.length = 0;
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const href = `blob:test/${blobs.size}`;
      blobs.set(href, blob as Blob);
      return href;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: blobs.get(this.href) as Blob });
    });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function mounted() {
    const storage = memoryStore();
    await storage.set({ [runKey(1)]: run });
    const root = document.body.appendChild(document.createElement('main'));
    const view = mountLiveView(
      root,
      {
        storage,
        send: async () => ({ ok: true }),
        watch: () => () => undefined,
        api: createApiClient({ serverUrl, apiKey: KEY }),
      },
      { empty: 'No task.' },
    );
    await view.show(1);
    const button = (label: string) => {
      const found = root.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
      if (!found) throw new Error(`no button "${label}"`);
      return found;
    };
    return { root, button };
  }

  it('saves the CSV of a list and the JSON of its data under names that say what they are', async () => {
    const { button } = await mounted();
    button('Download CSV of extraction 1').click();
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    button('Download JSON of extraction 1').click();
    await vi.waitFor(() => expect(saved).toHaveLength(2));

    expect(asked).toEqual([
      {
        url: `/api/tasks/${TASK}/extractions?format=csv&extractionId=products`,
        authorization: `Bearer ${KEY}`,
      },
      {
        url: `/api/tasks/${TASK}/extractions?format=json&extractionId=products`,
        authorization: `Bearer ${KEY}`,
      },
    ]);
    expect(saved.map((s) => s.name)).toEqual([
      `tandem-${TASK}-extraction-products.csv`,
      `tandem-${TASK}-extraction-products.json`,
    ]);
    expect(await saved[0]?.blob.text()).toBe(CSV);
    expect(JSON.parse((await saved[1]?.blob.text()) ?? '')).toEqual(products);
  });

  it("shows the server's refusal as the notice and saves nothing", async () => {
    const { root, button } = await mounted();
    const notice = root.querySelector<HTMLElement>('#notice');
    expect(notice?.hidden).toBe(true);
    button('Download CSV of extraction 2').click();
    await vi.waitFor(() => expect(notice?.hidden).toBe(false));
    expect(notice?.textContent).toBe('Download failed (400): The data of shop is not a list.');
    expect(saved).toEqual([]);
  });
});
