// Web content into knowledge: pages a crawl fetched, and the page content the extension sends
// with the user's consent (docs/specs.md, "two-phase SPA ingestion").
import type { PageContentRequest, PageContentResponse } from '@tandem/contracts';
import type { KnowledgeChunk, KnowledgeRepository } from '@tandem/store';
import { hostOfUrl } from '../retrieval/domains';
import { chunkForRetrieval } from './chunk';
import { contentHash, type KnowledgeIngestion, type StoredSource } from './service';

export interface CrawledPageInput {
  tenantId: string;
  url: string;
  finalUrl: string;
  contentType: string;
  body: Uint8Array;
  /** From the Content-Type header; UTF-8 when absent or unknown. */
  charset?: string;
  domain: string;
  jobId: string;
}

const HTML = /^(text\/html|application\/xhtml\+xml)/i;

/**
 * One crawled page: HTML through main-content extraction (so navigation and footers do not
 * become knowledge), other types (PDF, Markdown, text) through the document extractors.
 * The page's final URL is its identity, so a re-crawl supersedes what the last one stored.
 */
export async function ingestCrawledPage(
  ingestion: KnowledgeIngestion,
  page: CrawledPageInput,
): Promise<StoredSource | null> {
  if (!HTML.test(page.contentType)) {
    const fileName = decodeURIComponent(new URL(page.finalUrl).pathname.split('/').pop() || 'page');
    return ingestion.ingestFile({
      tenantId: page.tenantId,
      bytes: page.body,
      fileName,
      mimeType: page.contentType.split(';')[0] ?? page.contentType,
      domain: page.domain,
      sourceUrl: page.finalUrl,
      source: 'crawl',
      jobId: page.jobId,
    });
  }
  const html = decode(page.body, page.charset);
  const main = await ingestion.parsers.mainContent({
    tenantId: page.tenantId,
    html,
    url: page.finalUrl,
  });
  if (main.text.trim() === '') return null;
  return ingestion.storeSource({
    tenantId: page.tenantId,
    sourceUrl: page.finalUrl,
    domain: page.domain,
    title: main.title || page.finalUrl,
    mimeType: 'text/html',
    markdown: main.markdown,
    sizeBytes: page.body.byteLength,
    source: 'crawl',
    jobId: page.jobId,
  });
}

/**
 * Phase 1 (`initial`): the page as loaded, hidden content kept (an SPA reveals it later),
 * stored like any source of that URL. Phase 2 (`post-interaction`): what an action revealed:
 * hidden content dropped, chunks the page already had word for word left out, and initial
 * chunks under the same heading as a new one superseded — the area the action changed
 * ("Status: Pending" → "Status: Approved") must not answer with its stale version.
 */
export async function ingestPageContent(
  ingestion: KnowledgeIngestion,
  deps: PageDeps,
  input: PageContentRequest & { tenantId: string },
): Promise<PageContentResponse> {
  const domain = hostOfUrl(input.url) ?? '';
  if (input.phase === 'initial') {
    const main = await ingestion.parsers.mainContent({
      tenantId: input.tenantId,
      html: input.html,
      url: input.url,
    });
    const stored = await ingestion.storeSource({
      tenantId: input.tenantId,
      sourceUrl: input.url,
      domain,
      title: input.title || main.title || input.url,
      mimeType: 'text/html',
      markdown: main.markdown,
      sizeBytes: Buffer.byteLength(input.html),
      source: 'page',
    });
    return {
      documentId: stored.document.id,
      added: stored.chunksAdded,
      duplicates: stored.unchanged ? chunkForRetrieval(main.markdown).length : 0,
      superseded: stored.chunksSuperseded,
    };
  }
  return ingestPostInteraction(ingestion, deps, input, domain);
}

export interface PageDeps {
  knowledge: KnowledgeRepository;
}

async function ingestPostInteraction(
  ingestion: KnowledgeIngestion,
  { knowledge }: PageDeps,
  input: PageContentRequest & { tenantId: string },
  domain: string,
): Promise<PageContentResponse> {
  const main = await ingestion.parsers.mainContent({
    tenantId: input.tenantId,
    html: input.html,
    url: input.url,
    preserveHidden: false,
  });
  const pieces = chunkForRetrieval(main.markdown);
  const [existing] = await knowledge.listDocuments(input.tenantId, { sourceUrl: input.url });
  if (!existing) await ingestion.checkQuota(input.tenantId, Buffer.byteLength(input.html), null);
  const document =
    existing ??
    (await knowledge.createDocument(input.tenantId, {
      domain,
      title: input.title || main.title || input.url,
      mimeType: 'text/html',
      sourceUrl: input.url,
      status: 'ready',
      metadata: { source: 'page', sizeBytes: Buffer.byteLength(input.html), warnings: [] },
    }));
  const current = await knowledge.listChunks(input.tenantId, { documentId: document.id });
  const known = new Set(current.map((c) => c.content.trim()));
  const fresh = pieces.filter((p) => !known.has(p.content.trim()));
  if (fresh.length === 0) {
    return { documentId: document.id, added: 0, duplicates: pieces.length, superseded: 0 };
  }
  const { vectors } = await ingestion.embedChunks(input.tenantId, fresh);
  const added = await knowledge.addChunks(
    input.tenantId,
    document.id,
    fresh.map((piece, index) => ({
      ordinal: (current.at(-1)?.ordinal ?? -1) + 1 + index,
      content: piece.content,
      headingPath: piece.headingPath,
      tokenCount: piece.tokenCount,
      embedding: vectors?.[index] ?? null,
      phase: 'post-interaction',
      triggerAction: input.triggerAction ?? null,
    })),
  );
  const stale = staleChunks(current, added);
  const superseded =
    stale.length > 0 && added[0]
      ? await knowledge.markSuperseded(input.tenantId, stale, added[0].id)
      : 0;
  await knowledge.updateDocument(input.tenantId, document.id, {
    metadata: {
      ...document.metadata,
      lastTriggerAction: input.triggerAction ?? null,
      postInteractionHash: contentHash(main.markdown),
    },
  });
  return {
    documentId: document.id,
    added: added.length,
    duplicates: pieces.length - fresh.length,
    superseded,
  };
}

/** Initial chunks under a heading path that the new content now covers. */
function staleChunks(current: KnowledgeChunk[], added: KnowledgeChunk[]): string[] {
  const paths = new Set(added.filter((c) => c.headingPath.length > 0).map(pathKey));
  return current
    .filter((c) => c.phase !== 'post-interaction' && c.headingPath.length > 0)
    .filter((c) => paths.has(pathKey(c)))
    .map((c) => c.id);
}

const pathKey = (chunk: Pick<KnowledgeChunk, 'headingPath'>): string =>
  chunk.headingPath.join('\u0000');

function decode(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    // An unknown label (a typo in a server's header) is not worth losing the page over.
    return new TextDecoder().decode(body);
  }
}
