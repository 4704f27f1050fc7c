// Ingestion throughput on data/pages-dev: each page as a crawl would store it (main-content
// extraction, chunking, store writes), lexical only — an embeddings call is a model's latency,
// not ours, and is reported separately when a model is configured.
import { hostOf } from '@tandem/contracts';
import { KnowledgeIngestion, ingestCrawledPage } from '@tandem/knowledge/ingestion';
import type { Store } from '@tandem/store';
import { loadPages } from '../content/pages';
import { fmt, summary } from './stats';

export async function benchIngestion(store: Store, dataDir: string): Promise<string[]> {
  const pages = loadPages(dataDir);
  if (!pages) return [`ingestion: skipped (${dataDir} not found)`];
  const tenantId = (await store.tenants.create({ name: 'bench-ingest' })).id;
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder: null,
    quotas: { documents: 1_000_000, bytes: Number.MAX_SAFE_INTEGER },
  });
  const times: number[] = [];
  let chunks = 0;
  let bytes = 0;
  const started = performance.now();
  for (const page of pages) {
    const body = new TextEncoder().encode(page.html);
    const t0 = performance.now();
    // A few dev pages have no URL in their ground truth: give them one of their own.
    const url = hostOf(page.url) ? page.url : `https://pages-dev.invalid/${page.id}`;
    const stored = await ingestCrawledPage(ingestion, {
      tenantId,
      url,
      finalUrl: url,
      contentType: 'text/html',
      body,
      domain: hostOf(url) ?? '',
      jobId: 'bench',
    });
    times.push(performance.now() - t0);
    chunks += stored?.chunksAdded ?? 0;
    bytes += body.byteLength;
  }
  const seconds = (performance.now() - started) / 1000;
  const { median, p95 } = summary(times);
  return [
    `ingestion: ${pages.length} pages (${fmt(bytes / 1024 / 1024)} MB HTML) → ${chunks} chunks in ${fmt(seconds)} s`,
    `  ${fmt(pages.length / seconds)} pages/s; per page median ${fmt(median)} ms, p95 ${fmt(p95)} ms`,
  ];
}
