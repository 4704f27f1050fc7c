// bench:content — main-content F1 on data/pages-dev (issue 18 item 1): ours against
// Readability alone, measured in the same run, overall and per page type, plus median and
// p95 ms. Targets: overall F1 ≥ 0.85, every page type ≥ 0.75, median ≤ 50 ms per page.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { extractMainContent } from '@tandem/knowledge/ingestion';
import { parseHtml, releaseDocument } from '@tandem/page/server';
import { loadPages, type DevPage } from './pages';
import { aggregate, markdownText, scorePage, type PageScore } from './score';

const DATA = resolve(import.meta.dirname, '../../../shared/data/pages-dev');

const { values: args } = parseArgs({
  options: {
    type: { type: 'string' },
    limit: { type: 'string' },
    'no-baseline': { type: 'boolean', default: false },
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
  };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
};

const f = (x: number): string => x.toFixed(3);

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

const pages = loadPages(DATA);
if (!pages) {
  console.log(`bench:content skipped: ${DATA} is absent (CI clones do not have shared data).`);
} else {
  const selected = pages
    .filter((p) => args.type === undefined || p.type === args.type)
    .slice(0, Number(args.limit ?? pages.length));
  const rows = selected.map(measure);
  printTable(rows);
  if (args.dump) writeFileSync(args.dump, JSON.stringify(rows, null, 1));
}
