// bench/extraction (docs/specs.md, "extraction overhaul"): structured extraction on the demo
// catalogue (3 pages × 40 products, one repeated) and its 500-row price list, through the real
// ExtractionService, store (libSQL in memory) and chunker, with the scripted model that answers
// only from the text it is given — so wrong chunking or a wrong replay shows up as wrong data.
// Content is the page library's HTML content snapshot from headless Chromium, as the extension
// sends it.
//
// Figures: field-level precision/recall against the demo's ground truth; model tokens and
// calls per page with and without the strategy replay; chunking 1 MB of Markdown.
// Targets: precision and recall ≥ 0.99; ≥ 95% fewer model tokens on pages 2-3 with replay (the
// cross-check of the first replay, a slice of page 2 read by the model, is printed on its own);
// chunking 1 MB ≤ 50 ms (median).
//
//   npm run bench:extraction
//
// With --adversarial (and optional --seed N, --pairs N) it runs only the generated adversarial
// replay suite instead (adversarial.ts): no Chromium, ≥ 500 generated page pairs.
import { CATALOG, PRICE_TABLE, PRODUCT_LIST_SCHEMA } from '@tandem/demo-sites';
import { ExtractionService, parseContent } from '@tandem/extraction';
import { scriptedExtractionLlm } from '@tandem/extraction/testing';
import { chunkMarkdownByStructure } from '@tandem/markdown';
import { createLibsqlStore } from '@tandem/store';
import { adversarialBench, adversarialOptions } from './adversarial';
import { captureContent, type ContentPage } from './pages';
import { scoreFields, type Score } from './score';

const PRODUCTS = JSON.parse(JSON.stringify(PRODUCT_LIST_SCHEMA)) as Record<string, unknown>;
const PRICES = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      sku: { type: 'string' },
      product: { type: 'string' },
      price: { type: 'number' },
      currency: { type: 'string' },
    },
    required: ['sku', 'product', 'price', 'currency'],
  },
};
const TENANT = 'bench';

async function newService() {
  const store = await createLibsqlStore({ url: ':memory:' });
  return new ExtractionService({ llm: scriptedExtractionLlm(), store });
}

type Service = Awaited<ReturnType<typeof newService>>;

function run(service: Service, page: ContentPage, request: Record<string, unknown>) {
  return service.run({
    tenantId: TENANT,
    taskId: 'bench-task',
    context: { tenantId: TENANT },
    url: page.url,
    html: page.html,
    request: { query: 'every product with name, price and rating', ...request },
    applySelector: false,
  });
}

interface PageFigures {
  page: string;
  method: string;
  calls: number;
  tokens: number;
  chunks: number;
  /** A replay the model cross-checked (the first of a recipe, then every Nth): its tokens. */
  checkTokens: number;
  score: Score;
}

const fmt = (n: number) => n.toFixed(3);
const productFields = ['name', 'price', 'rating'];
const truthOf = (page: number) => CATALOG.pages[page]?.map((p) => ({ ...p })) ?? [];

async function catalogueRuns(pages: ContentPage[]) {
  const without: PageFigures[] = [];
  for (const [i, page] of pages.entries()) {
    // A fresh store per page: no strategy to replay, the model reads every page.
    const out = await run(await newService(), page, { outputSchema: PRODUCTS });
    without.push(
      figures(
        `catalogue p${i + 1}`,
        out,
        scoreFields(out.result.data, truthOf(i), 'name', productFields),
      ),
    );
  }
  const service = await newService();
  const first = await run(service, pages[0] as ContentPage, { outputSchema: PRODUCTS });
  const id = first.result.extractionId ?? '';
  const withReplay = [
    figures(
      'catalogue p1',
      first,
      scoreFields(first.result.data, truthOf(0), 'name', productFields),
    ),
  ];
  let last = first;
  for (const [i, page] of pages.slice(1).entries()) {
    last = await run(service, page, { extractionId: id });
    withReplay.push(
      figures(
        `catalogue p${i + 2}`,
        last,
        scoreFields(last.result.data, truthOf(i + 1), 'name', productFields),
      ),
    );
  }
  const aggregate = last.aggregate;
  const unique = scoreFields(
    aggregate?.data,
    CATALOG.uniqueProducts.map((p) => ({ ...p })),
    'name',
    productFields,
  );
  return { without, withReplay, aggregate, unique };
}

function figures(page: string, out: Awaited<ReturnType<typeof run>>, score: Score): PageFigures {
  const stats = out.result.contentStats;
  return {
    page,
    method: out.result.method,
    calls: stats.modelCalls,
    tokens: stats.inputTokens + stats.outputTokens,
    chunks: stats.chunks,
    checkTokens: out.result.replay?.checked ? stats.inputTokens + stats.outputTokens : 0,
    score,
  };
}

function chunkTiming(markdown: string): { mb: number; medianMs: number; chunks: number } {
  let big = '';
  const prose =
    '\n\n## Notes\n\nPrices include VAT. Delivery takes 3 to 5 working days. Returns are free within 30 days.\n\n';
  while (big.length < 1_000_000) big += markdown + prose;
  const times: number[] = [];
  let chunks = 0;
  for (let i = 0; i < 25; i++) {
    const started = performance.now();
    chunks = chunkMarkdownByStructure(big, { maxChunkSize: 20_000, overlapLines: 3 }).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { mb: big.length / 1_000_000, medianMs: times[Math.floor(times.length / 2)] ?? 0, chunks };
}

function printRows(title: string, rows: PageFigures[]): void {
  console.log(`\n${title}`);
  console.log('page            method  calls  tokens  chunks  precision  recall');
  for (const r of rows) {
    console.log(
      `${r.page.padEnd(15)} ${r.method.padEnd(7)} ${String(r.calls).padStart(5)} ${String(r.tokens).padStart(7)} ${String(r.chunks).padStart(7)}  ${fmt(r.score.precision).padStart(9)}  ${fmt(r.score.recall).padStart(6)}`,
    );
  }
}

async function main(): Promise<void> {
  console.log('bench/extraction: capturing the demo pages in Chromium…');
  const { catalog, prices } = await captureContent();
  const { without, withReplay, aggregate, unique } = await catalogueRuns(catalog);
  printRows('Without strategy replay (the model reads every page)', without);
  printRows(
    'With strategy replay (page 1 by the model, pages 2-3 by learned selectors)',
    withReplay,
  );

  const tableOut = await run(await newService(), prices, {
    outputSchema: PRICES,
    query: 'every row of the price list',
  });
  const tableScore = scoreFields(
    tableOut.result.data,
    PRICE_TABLE.map((r) => ({ ...r })),
    'sku',
    ['sku', 'product', 'price', 'currency'],
  );
  printRows('500-row price table', [figures('price table', tableOut, tableScore)]);

  const tokens = (rows: PageFigures[]) => rows.slice(1).reduce((sum, r) => sum + r.tokens, 0);
  const checkTokens = withReplay.slice(1).reduce((sum, r) => sum + r.checkTokens, 0);
  // The cross-check of a recipe's first replay reads a slice of page 2 (EXTRACTION_CHECK): it
  // is the price of knowing the replay is right, shown on its own; the target is on the rest.
  const saved = 1 - (tokens(withReplay) - checkTokens) / Math.max(1, tokens(without));
  const timing = chunkTiming(parseContent({ html: prices.html, url: prices.url }).markdown);
  const scores = [...without, ...withReplay].map((r) => r.score).concat(tableScore, unique);
  const minPrecision = Math.min(...scores.map((s) => s.precision));
  const minRecall = Math.min(...scores.map((s) => s.recall));

  console.log(
    `\nunique products across 3 pages: ${aggregate?.items ?? 0} (truth ${CATALOG.uniqueProducts.length}); aggregate precision ${fmt(unique.precision)}, recall ${fmt(unique.recall)}`,
  );
  console.log(
    `model tokens on pages 2-3: ${tokens(without)} without replay, ${tokens(withReplay)} with, of which ${checkTokens} the model's cross-check of the first replay: ${(saved * 100).toFixed(1)}% fewer without the check, ${((1 - tokens(withReplay) / Math.max(1, tokens(without))) * 100).toFixed(1)}% with it`,
  );
  console.log(
    `chunking ${timing.mb.toFixed(2)} MB of Markdown into ${timing.chunks} chunks: median ${timing.medianMs.toFixed(1)} ms`,
  );
  const checks: [string, boolean][] = [
    [`precision ≥ 0.99 (min ${fmt(minPrecision)})`, minPrecision >= 0.99],
    [`recall ≥ 0.99 (min ${fmt(minRecall)})`, minRecall >= 0.99],
    [
      `≥ 95% fewer model tokens on pages 2-3, the first replay's cross-check aside (${(saved * 100).toFixed(1)}%)`,
      saved >= 0.95,
    ],
    [`chunking 1 MB ≤ 50 ms (${timing.medianMs.toFixed(1)} ms)`, timing.medianMs <= 50],
    [`119 unique products (${aggregate?.items ?? 0})`, aggregate?.items === 119],
  ];
  console.log('\ntargets:');
  for (const [label, ok] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

if (process.argv.includes('--adversarial')) {
  await adversarialBench(adversarialOptions(process.argv.slice(2)));
} else {
  await main();
}
