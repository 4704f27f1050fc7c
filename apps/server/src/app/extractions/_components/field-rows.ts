// What the page shows of an extraction: one row per value, its path, and the confidence kept
// at the same path in the confidences (which have the fields' shape). Pure, for a unit test.
import { formatFieldPath, type FieldPathSegment } from '@tandem/contracts';

/** Below this a value is highlighted: the agent was not sure of it. */
export const LOW_CONFIDENCE = 0.8;

export interface FieldRow {
  path: string;
  value: unknown;
  confidence: number | null;
  low: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function childOf(container: unknown, segment: FieldPathSegment): unknown {
  if (typeof segment === 'number') return Array.isArray(container) ? container[segment] : undefined;
  return isObject(container) ? container[segment] : undefined;
}

export function fieldRows(fields: Record<string, unknown>, confidences: unknown): FieldRow[] {
  const rows: FieldRow[] = [];
  const visit = (value: unknown, confidence: unknown, path: FieldPathSegment[]): void => {
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((item, i) => visit(item, childOf(confidence, i), [...path, i]));
      return;
    }
    if (isObject(value) && Object.keys(value).length > 0) {
      for (const [key, child] of Object.entries(value))
        visit(child, childOf(confidence, key), [...path, key]);
      return;
    }
    const c = typeof confidence === 'number' ? confidence : null;
    rows.push({
      path: formatFieldPath(path),
      value,
      confidence: c,
      low: c !== null && c < LOW_CONFIDENCE,
    });
  };
  for (const [key, value] of Object.entries(fields)) visit(value, childOf(confidences, key), [key]);
  return rows;
}

export const showValue = (value: unknown): string =>
  typeof value === 'string' ? value : value === null ? '—' : JSON.stringify(value);

/** A tool call in words, for the live log. */
export function toolLabel(tool: string, input: unknown): string {
  const args = isObject(input) ? input : {};
  switch (tool) {
    case 'get_document_text':
      return typeof args.page === 'number'
        ? `Reading page ${args.page} on`
        : 'Reading the document';
    case 'get_current_extraction':
      return 'Looking at the extraction';
    case 'identify_document':
      return `Identified the document: ${String(args.document_type ?? '?').replace(/_/g, ' ')}`;
    case 'extract_fields':
      return `Saving ${isObject(args.fields) ? Object.keys(args.fields).length : 0} fields`;
    case 'update_field':
      return `Setting ${String(args.path)} to ${showValue(args.value)}`;
    case 'remove_field':
      return `Removing ${String(args.path)}`;
    case 'complete_extraction':
      return 'Completing the extraction';
    default:
      return tool.replace(/_/g, ' ');
  }
}
