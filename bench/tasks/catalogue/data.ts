// Data out of pages: streaming collection over a paged job board with promoted repeats
// (docs/specs.md, "streaming extraction"), structured extraction of the product catalogue with
// replay on later pages (docs/specs.md, "extraction overhaul"), and a cart button among forty
// look-alikes. Checked against the demo's ground truth (JOB_BOARD, CATALOG), from what the server
// stored for the task.
import {
  CATALOG,
  DEMO_PAGES,
  JOB_BOARD,
  PRODUCT_LIST_SCHEMA,
  type Job,
  type Product,
} from '@tandem/demo-sites';
import { fail, pass, serverJson, textIs, type Check } from '../checks';
import type { BenchTask } from '../task';

/** The schema as a plain mutable object (the demo exports a readonly const). */
const PRODUCTS = JSON.parse(JSON.stringify(PRODUCT_LIST_SCHEMA)) as Record<string, unknown>;

/** How the server keys a job: its id, or title@company for the card without one. */
const jobKey = (job: Job) =>
  job.id ? `job:${job.id}` : `${job.title}@${job.company}`.toLowerCase();

/** The task stored exactly the first `count` unique jobs of the board, each once. */
function collectedJobs(count: number): Check {
  return async (ctx) => {
    const listed = await serverJson<{ items: { uniqueKey: string | null }[] }>(
      ctx,
      `/api/tasks/${ctx.taskId}/collected?limit=100`,
    );
    const got = listed.items.map((i) => i.uniqueKey ?? '?');
    const want = JOB_BOARD.uniqueJobs.slice(0, count).map(jobKey);
    const missing = want.filter((key) => !got.includes(key));
    if (got.length !== count || new Set(got).size !== count || missing.length > 0)
      return fail(`${got.length} items, missing ${missing.join(', ') || 'none'}`);
    return pass(`${count} unique jobs, first ${got[0]}, last ${got.at(-1)}`);
  };
}

interface Aggregate {
  data: unknown;
  items: number | null;
  pages: number;
}

/** The task's extraction holds exactly these products (name, price, rating), in order. */
function extracted(products: readonly Product[], pages: number): Check {
  return async (ctx) => {
    const { aggregates } = await serverJson<{ aggregates: Aggregate[] }>(
      ctx,
      `/api/tasks/${ctx.taskId}/extractions`,
    );
    const [aggregate] = aggregates;
    if (!aggregate) return fail('no extraction stored');
    const want = products.map(({ name, price, rating }) => ({ name, price, rating }));
    const same = JSON.stringify(aggregate.data) === JSON.stringify(want);
    return same && aggregate.pages === pages
      ? pass(`${want.length} products from ${pages} pages, every field right`)
      : fail(
          `${aggregate.items ?? '?'} items from ${aggregate.pages} pages, data ${same ? 'right' : 'wrong'}`,
        );
  };
}

const firstProduct = CATALOG.pages[0]?.[0];

export const DATA_TASKS: BenchTask[] = [
  {
    id: 'jobs-collect',
    category: 'collection',
    start: DEMO_PAGES.jobs,
    goal: 'Extract 15 job listings',
    script: { kind: 'collect', selector: '#job-list', type: 'job' },
    check: collectedJobs(15),
    rerun: {
      goal: 'Extract 10 job listings',
      script: { kind: 'collect', selector: '#job-list', type: 'job' },
      check: collectedJobs(10),
    },
  },
  {
    id: 'catalog-extract-all',
    category: 'catalogue',
    start: DEMO_PAGES.catalog,
    goal: 'Extract every product as JSON with name, price and rating',
    script: {
      kind: 'extract',
      query: 'every product with name, price and rating',
      schema: PRODUCTS,
      allPages: true,
    },
    check: extracted(CATALOG.uniqueProducts, CATALOG.pageCount),
  },
  {
    id: 'catalog-extract-page',
    category: 'catalogue',
    start: DEMO_PAGES.catalogPage2,
    goal: 'Extract the products on this page as JSON with name, price and rating',
    script: {
      kind: 'extract',
      query: 'the products on this page with name, price and rating',
      schema: PRODUCTS,
      allPages: false,
    },
    check: extracted(CATALOG.pages[1] ?? [], 1),
  },
  {
    id: 'catalog-add-to-cart',
    category: 'catalogue',
    start: DEMO_PAGES.catalog,
    goal: 'Add the first product to the cart',
    // Forty buttons share the name "Add to cart": the model takes the first one it may click.
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Add to cart' }] },
    check: textIs('#cart-status', `Added ${firstProduct?.name ?? '?'} to your cart (1 item).`),
  },
];
