// Store records → wire views of the document extraction routes.
import type {
  DocumentExtractionView,
  DocumentView,
  ExtractionWriteView,
  StackView,
} from '@tandem/contracts';
import { microUsdToUsd } from '@tandem/observability';
import { isRetryable } from '../../../../server/document-uploads';
import type {
  DocumentExtraction,
  DocumentSummary,
  ExtractionWrite,
  Stack,
  StackRow,
} from '@tandem/store';

export function documentView(document: DocumentSummary): DocumentView {
  return {
    id: document.id,
    fileName: document.fileName,
    title: document.title,
    mimeType: document.mimeType,
    pageCount: document.pageCount,
    sizeBytes: document.sizeBytes,
    characters: document.characters,
    warnings: document.warnings,
    status: document.status,
    error: document.error,
    retryable: isRetryable(document),
    createdAt: document.createdAt,
  };
}

export function extractionView(x: DocumentExtraction): DocumentExtractionView {
  return {
    id: x.id,
    documentId: x.documentId,
    status: x.status,
    documentType: x.documentType,
    fields: x.fields,
    confidences: x.confidences,
    schema: x.schema,
    instructions: x.instructions,
    costMicroUsd: x.costMicroUsd,
    cost: microUsdToUsd(x.costMicroUsd),
    tokens: x.tokens,
    error: x.error,
    createdAt: x.createdAt,
    updatedAt: x.updatedAt,
  };
}

export const writeView = (write: ExtractionWrite): ExtractionWriteView => ({
  seq: write.seq,
  tool: write.tool,
  input: write.input,
  createdAt: write.createdAt,
});

export function stackView(stack: Stack, rows: readonly StackRow[]): StackView {
  const byDocument = new Map(rows.map((row) => [row.documentId, row]));
  return {
    id: stack.id,
    name: stack.name,
    status: stack.status,
    documentIds: stack.documentIds,
    columns: stack.columns,
    rows: stack.documentIds.flatMap((id) => {
      const row = byDocument.get(id);
      return row
        ? [
            {
              documentId: id,
              cells: row.cells,
              confidences: row.confidences,
              updatedAt: row.updatedAt,
            },
          ]
        : [];
    }),
    instructions: stack.instructions,
    costMicroUsd: stack.costMicroUsd,
    cost: microUsdToUsd(stack.costMicroUsd),
    tokens: stack.tokens,
    error: stack.error,
    createdAt: stack.createdAt,
    updatedAt: stack.updatedAt,
  };
}
