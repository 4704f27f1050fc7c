// Store records → wire views of GET /api/knowledge/*. The job's resume state (frontier,
// visited) and the document's internal metadata stay on the server.
import {
  KnowledgeSource,
  type KnowledgeDocumentView,
  type KnowledgeUsageView,
} from '@tandem/contracts';
import type { KnowledgeQuotas } from '@tandem/knowledge/ingestion';
import type { KnowledgeDocument, KnowledgeUsage } from '@tandem/store';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function documentView(
  document: KnowledgeDocument,
  chunkCounts: Record<string, number>,
): KnowledgeDocumentView {
  const { metadata } = document;
  const source = KnowledgeSource.safeParse(metadata.source);
  const warnings = Array.isArray(metadata.warnings)
    ? metadata.warnings.filter((w): w is string => typeof w === 'string')
    : [];
  return {
    id: document.id,
    domain: document.domain,
    sourceUrl: document.sourceUrl,
    title: document.title,
    mimeType: document.mimeType,
    status: document.status,
    source: source.success ? source.data : 'upload',
    sizeBytes: typeof metadata.sizeBytes === 'number' ? metadata.sizeBytes : 0,
    chunks: chunkCounts[document.id] ?? 0,
    jobId: str(metadata.jobId),
    error: str(metadata.error),
    warnings,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

export const usageView = (usage: KnowledgeUsage, quotas: KnowledgeQuotas): KnowledgeUsageView => ({
  ...usage,
  quotaDocuments: quotas.documents,
  quotaBytes: quotas.bytes,
});
