// What one extraction will do, resolved before any content is read: the query, schema and
// selector (from the request, else from the strategy it names or that matches the page), and
// the strategy reused. An extractionId reuses the cached selector and schema (docs/specs.md, "the
// strategy cache").
import type { ExtractRequest, InputLimits } from '@tandem/contracts';
import type { ExtractionStrategy } from '@tandem/store';
import { checkOutputSchema, checkSchemaBudget, schemaHash, type CheckedSchema } from './schema';
import type { ExtractionCache } from './strategy-cache';

export interface ExtractionPlan {
  query: string;
  schema: CheckedSchema | null;
  cssSelector: string | null;
  /** The strategy reused: its replay is tried, its id is the aggregate key. */
  strategy: ExtractionStrategy | null;
  warnings: string[];
}

/** The request cannot be carried out as given (an unknown extractionId and no query). */
/**
 * The scope a strategy keeps for later pages: a CSS selector or an outline xpath, which name
 * the same region on every page of a layout. An element id from the interactive tree ("@ref:14",
 * "ref:14", "14") names an element of the page it was read on only: kept, a later page's
 * element 14 (any element) would scope the read, so the strategy keeps the whole page instead
 * (its recipe's selectors still find the items).
 */
export function keptSelector(selector: string | null | undefined): string | null {
  const text = selector?.trim() ?? '';
  return text === '' || /^(?:@?ref:.*|\d+)$/.test(text) ? null : text;
}

export class ExtractionInputError extends Error {
  override readonly name = 'ExtractionInputError';
}

export async function planExtraction(
  cache: ExtractionCache,
  tenantId: string,
  request: ExtractRequest,
  url: string | null,
  limits: Pick<InputLimits, 'schemaMaxDepth' | 'schemaMaxNodes'>,
): Promise<ExtractionPlan> {
  // Before anything reads the schema: hashing and converting it recurse per level.
  if (request.outputSchema) checkSchemaBudget(request.outputSchema, limits);
  const warnings: string[] = [];
  let strategy = await namedOrMatching(cache, tenantId, request, url, warnings);
  if (
    strategy &&
    request.outputSchema &&
    schemaHash(request.outputSchema) !== strategy.schemaHash
  ) {
    warnings.push(
      `extraction_id ${strategy.id} extracts another schema; this extraction starts a new one.`,
    );
    strategy = null;
  }
  const query = request.query ?? strategy?.queryTemplate;
  if (!query) {
    throw new ExtractionInputError(
      `extractionId ${JSON.stringify(request.extractionId)} is not a known extraction; give a query to extract anew.`,
    );
  }
  const schemaJson = request.outputSchema ?? strategy?.outputSchema ?? null;
  let schema: CheckedSchema | null = null;
  if (schemaJson) {
    const checked = checkOutputSchema(schemaJson);
    if (checked.ok) schema = checked.schema;
    else warnings.push(checked.warning);
  }
  return {
    query,
    schema,
    cssSelector: request.cssSelector ?? strategy?.cssSelector ?? null,
    strategy,
    warnings,
  };
}

async function namedOrMatching(
  cache: ExtractionCache,
  tenantId: string,
  request: ExtractRequest,
  url: string | null,
  warnings: string[],
): Promise<ExtractionStrategy | null> {
  if (request.extractionId) {
    const named = await cache.get(tenantId, request.extractionId);
    if (!named) {
      warnings.push(
        `extraction_id ${request.extractionId} is not known (strategies are per account); extracted without it.`,
      );
    }
    return named;
  }
  // Without an id, a strategy learned on a page like this one, for the same schema and
  // selector, is reused: a later task on the same site replays it too.
  if (!url || !request.outputSchema) return null;
  const hash = schemaHash(request.outputSchema);
  const selector = keptSelector(request.cssSelector);
  const matching = await cache.findMatching(tenantId, url);
  return matching.find((s) => s.schemaHash === hash && s.cssSelector === selector) ?? null;
}
