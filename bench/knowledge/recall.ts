// Recall@5 on questions about the demo docs site (questions.json): the site is crawled with
// the real crawler from its sitemap on loopback, then each question is resolved for a page of
// the site. A hit: a top-5 chunk from the question's page that contains the answer phrase.
// Lexical-only always; hybrid when an embeddings model is configured (GEMINI_API_KEY, or
// EMBEDDINGS_BASE_URL + EMBEDDINGS_MODEL) — there is no real model on CI machines.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDemoSites } from '@tandem/demo-sites';
import { createKnowledgeRetriever } from '@tandem/knowledge';
import { type Embedder } from '@tandem/llm';
import { KnowledgeIngestion, ingestCrawledPage, runCrawl } from '@tandem/knowledge/ingestion';
import type { Store } from '@tandem/store';
import { embedderFromEnv } from './env';
import { fmt } from './stats';

interface Question {
  question: string;
  url: string;
  answer: string;
}

const QUESTIONS = JSON.parse(
  readFileSync(resolve(import.meta.dirname, 'questions.json'), 'utf8'),
) as Question[];

async function crawlInto(store: Store, origin: string, embedder: Embedder | null) {
  const tenantId = (
    await store.tenants.create({ name: `bench-recall-${embedder?.id ?? 'lexical'}` })
  ).id;
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder,
    quotas: { documents: 10_000, bytes: 1e9 },
  });
  const job = await store.knowledgeJobs.create(tenantId, {
    // /docs/ links only to its own anchors; every other page has the full sidebar.
    url: `${origin}/docs/getting-started.html`,
    strategy: 'spider',
    maxPages: 100,
    maxDepth: 3,
    domain: '127.0.0.1',
  });
  const t0 = performance.now();
  const done = await runCrawl(
    job,
    {
      jobs: store.knowledgeJobs,
      onPage: async (page) => {
        const stored = await ingestCrawledPage(ingestion, {
          ...page,
          tenantId,
          domain: '127.0.0.1',
          jobId: job.id,
        });
        return stored === null ? 'skipped' : stored.unchanged ? 'unchanged' : 'ingested';
      },
    },
    { allowPrivateNetwork: true },
  );
  return { tenantId, done, seconds: (performance.now() - t0) / 1000 };
}

export async function benchRecall(store: Store): Promise<string[]> {
  const sites = await startDemoSites();
  const lines: string[] = [];
  try {
    const modes: Array<{ label: string; embedder: Embedder | null }> = [
      { label: 'lexical only (BM25)', embedder: null },
    ];
    const real = embedderFromEnv();
    if (real) modes.push({ label: `hybrid (${real.id})`, embedder: real });
    else lines.push('recall@5 hybrid: skipped (no embeddings model configured)');
    for (const mode of modes) {
      const { tenantId, done, seconds } = await crawlInto(store, sites.url, mode.embedder);
      const retriever = createKnowledgeRetriever({
        knowledge: store.knowledge,
        embedder: mode.embedder,
      });
      let hits = 0;
      let pageHits = 0;
      const misses: string[] = [];
      for (const q of QUESTIONS) {
        const result = await retriever.retrieve({
          tenantId,
          url: `${sites.url}/docs/`,
          query: q.question,
          limit: 5,
        });
        const docs = await Promise.all(
          result.chunks.map((c) => store.knowledge.getDocument(tenantId, c.chunk.documentId)),
        );
        const onPage = result.chunks.filter((_, i) => docs[i]?.sourceUrl?.endsWith(q.url));
        if (onPage.length > 0) pageHits++;
        if (onPage.some((c) => c.chunk.content.includes(q.answer))) hits++;
        else misses.push(q.question);
      }
      lines.push(
        `recall@5 ${mode.label}: ${hits}/${QUESTIONS.length} = ${fmt(hits / QUESTIONS.length, 2)} (right page in top 5: ${fmt(pageHits / QUESTIONS.length, 2)}); crawl ${done.progress.ingested} pages in ${fmt(seconds)} s`,
        ...misses.map((m) => `  miss: ${m}`),
      );
    }
  } finally {
    await sites.close();
  }
  return lines;
}
