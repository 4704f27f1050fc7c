// bench:content — main-content F1 on data/pages-dev (issue 18 item 1): ours against
// Readability alone, measured in the same run, overall and per page type, plus median ms.
// Targets: overall F1 ≥ 0.85, every page type ≥ 0.75, median ≤ 50 ms per page.
import { resolve } from 'node:path';
import { Readability } from '@mozilla/readability';
import { extractMainContent } from '@tandem/knowledge/ingestion';
import { parseHtml, releaseDocument } from '@tandem/page/server';
import { loadPages, type DevPage } from './pages';
import { aggregate, markdownText, scorePage, type PageScore } from './score';

const DATA = resolve(import.meta.dirname, '../../../shared/data/pages-dev');

function readabilityAlone(page: DevPage): string {
  const doc = parseHtml(page.html);
  try {
    return new Readability(doc).parse()?.textContent ?? '';
  } finally {
    releaseDocument(doc);
  }
}

interface Row {
  type: string;
  ours: PageScore;
  baseline: PageScore;
  ms: number;
  method: string;
}

function measure(page: DevPage): Row {
  const start = performance.now();
  const ours = extractMainContent(page.html, { url: page.url, minReadabilityShare: SHARE });
  const ms = performance.now() - start;
  return {
    type: page.type,
    ours: scorePage(markdownText(ours.markdown), page.truth),
    baseline: scorePage(readabilityAlone(page), page.truth),
    ms,
    method: ours.method,
  };
}

/** `tsx content/run.ts [pages] [share]`: the share is MIN_READABILITY_SHARE, to compare. */
const SHARE = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : ((s[(s.length - 1) >> 1] ?? 0) + (s[s.length >> 1] ?? 0)) / 2;
};

const f = (x: number): string => x.toFixed(3);

function printTable(rows: Row[]): void {
  const types = [...new Set(rows.map((r) => r.type))].sort();
  console.log('| type | pages | ours P | ours R | ours F1 | Readability F1 | fallback used |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const type of [...types, 'overall']) {
    const subset = type === 'overall' ? rows : rows.filter((r) => r.type === type);
    const ours = aggregate(subset.map((r) => r.ours));
    const base = aggregate(subset.map((r) => r.baseline));
    const fallback = subset.filter((r) => r.method === 'fallback').length;
    console.log(
      `| ${type} | ${ours.pages} | ${f(ours.precision)} | ${f(ours.recall)} | ${f(ours.f1)} | ${f(base.f1)} | ${fallback} |`,
    );
  }
  console.log(`\nmedian ${median(rows.map((r) => r.ms)).toFixed(1)} ms per page (ours)`);
}

const pages = loadPages(DATA);
if (!pages) {
  console.log(`bench:content skipped: ${DATA} is absent (CI clones do not have shared data).`);
} else {
  const limit = Number(process.argv[2] ?? pages.length);
  printTable(pages.slice(0, limit).map(measure));
}
