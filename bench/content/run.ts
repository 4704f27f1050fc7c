// bench:content — main-content F1 on data/pages-dev: ours against
// Readability alone, measured in the same run, overall and per page type, plus median and
// p95 ms. Targets: overall F1 ≥ 0.85, every page type ≥ 0.75, median ≤ 50 ms per page
// (issue 35's per-type targets: bench/content/README.md). Also the accuracy of the page-type
// classifier (page-kind.ts) against the gold's page types.
// Then the same pages through the server's parse pool (budgets checked, a worker
// thread, the copy to and from it), which must give the same Markdown at a cost per page that
// stays within 10 % of the inline median; `--no-pool` skips it.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { DEFAULT_INPUT_LIMITS } from '@tandem/contracts';
import { extractMainContent } from '@tandem/knowledge/ingestion';
import { parseHtml, releaseDocument } from '@tandem/page/server';
import { ParsePool } from '@tandem/parse-pool';
import { loadPages, type DevPage } from './pages';
import { aggregate, markdownText, scorePage, type PageScore } from './score';

const DATA = resolve(import.meta.dirname, '../../../shared/data/pages-dev');

const { values: args } = parseArgs({
  options: {
    type: { type: 'string' },
    limit: { type: 'string' },
    'no-baseline': { type: 'boolean', default: false },
    'no-pool': { type: 'boolean', default: false },
    dump: { type: 'string' },
  },
});

function readabilityAlone(page: DevPage): string {
  const doc = parseHtml(page.html);
  try {
    return new Readability(doc).parse()?.textContent ?? '';
  } finally {
    releaseDocument(doc);
  }
}

interface Row {
  id: string;
  type: string;
  ours: PageScore;
  baseline: PageScore | undefined;
  ms: number;
  method: string;
  markdown: string;
  /** The classifier's page type (page-kind.ts), against the gold's `type`. */
  predicted: string;
}

function measure(page: DevPage): Row {
  const start = performance.now();
  const ours = extractMainContent(page.html, { url: page.url });
  const ms = performance.now() - start;
  return {
    id: page.id,
    type: page.type,
    ours: scorePage(markdownText(ours.markdown), page.truth),
    baseline: args['no-baseline'] ? undefined : scorePage(readabilityAlone(page), page.truth),
    ms,
    method: ours.method,
    markdown: ours.markdown,
    predicted: ours.pageType,
  };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
};

const f = (x: number): string => x.toFixed(3);

/**
 * The gold's page types the classifier tells apart: a blog post is an article; a service page
 * is none of them (the classifier's `other`).
 */
const CLASSES: Record<string, string> = {
  article: 'article',
  blog: 'article',
  forum: 'forum',
  product: 'product',
  collection: 'collection',
  listing: 'listing',
  documentation: 'documentation',
};

/** Accuracy of the page-type classifier against the gold, and its recall per gold type. */
function printClassifier(rows: Row[]): void {
  const right = (r: Row) => r.predicted === (CLASSES[r.type] ?? 'other');
  const correct = rows.filter(right).length;
  const perType = [...new Set(rows.map((r) => r.type))].sort().map((type) => {
    const subset = rows.filter((r) => r.type === type);
    return `${type} ${subset.filter(right).length}/${subset.length}`;
  });
  const predicted = [...new Set(rows.map((r) => r.predicted))].sort().map((type) => {
    const subset = rows.filter((r) => r.predicted === type);
    return `${type} ${subset.filter(right).length}/${subset.length}`;
  });
  console.log(
    `\npage type (page-kind.ts): ${correct} of ${rows.length} right (${f(correct / Math.max(1, rows.length))})` +
      `\n  right per gold type: ${perType.join(', ')}` +
      `\n  right per predicted type: ${predicted.join(', ')}`,
  );
}

function printTable(rows: Row[]): void {
  const types = [...new Set(rows.map((r) => r.type))].sort();
  console.log('| type | pages | ours P | ours R | ours F1 | Readability F1 | whole body |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const type of [...types, 'overall']) {
    const subset = type === 'overall' ? rows : rows.filter((r) => r.type === type);
    const ours = aggregate(subset.map((r) => r.ours));
    const baselines = subset.flatMap((r) => (r.baseline ? [r.baseline] : []));
    const base = baselines.length ? f(aggregate(baselines).f1) : '-';
    const body = subset.filter((r) => r.method !== 'blocks').length;
    console.log(
      `| ${type} | ${ours.pages} | ${f(ours.precision)} | ${f(ours.recall)} | ${f(ours.f1)} | ${base} | ${body} |`,
    );
  }
  const ms = rows.map((r) => r.ms);
  console.log(
    `\nours: median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)} ms per page`,
  );
}

/** The pages through the parse pool, one at a time as a crawl sends them: time and sameness. */
async function throughPool(pages: DevPage[], inline: Map<string, string>): Promise<void> {
  const pool = new ParsePool({
    threads: 2,
    heapMb: 512,
    timeoutMs: 60_000,
    limits: DEFAULT_INPUT_LIMITS,
  });
  try {
    // The first job also starts a thread and loads the parsers: measured apart.
    const coldStart = performance.now();
    await pool.run('bench', 'mainContent', { html: '<p>warm</p>' });
    const cold = performance.now() - coldStart;
    const ms: number[] = [];
    let differ = 0;
    let refused = 0;
    for (const page of pages) {
      const start = performance.now();
      try {
        const main = await pool.run('bench', 'mainContent', { html: page.html, url: page.url });
        ms.push(performance.now() - start);
        if (main.markdown !== inline.get(page.id)) differ++;
      } catch (error) {
        refused++;
        console.log(`  ${page.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    console.log(
      `through the parse pool: median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)} ms per page; ` +
        `${differ} of ${pages.length} pages differ from inline, ${refused} refused; first job (thread start) ${Math.round(cold)} ms`,
    );
  } finally {
    await pool.close();
  }
}

const pages = loadPages(DATA);
if (!pages) {
  console.log(`bench:content skipped: ${DATA} is absent (CI clones do not have shared data).`);
} else {
  const selected = pages
    .filter((p) => args.type === undefined || p.type === args.type)
    .slice(0, Number(args.limit ?? pages.length));
  const inline = new Map<string, string>();
  const rows = selected.map((page) => {
    const row = measure(page);
    inline.set(page.id, row.markdown);
    return row;
  });
  printTable(rows);
  printClassifier(rows);
  if (args.dump) writeFileSync(args.dump, JSON.stringify(rows, null, 1));
  if (!args['no-pool']) await throughPool(selected, inline);
}
