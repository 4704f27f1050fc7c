// The model's `extract` answer (docs/specs.md, "schema-enforced extraction"): checked against
// contracts' ExtractRequest, then turned into a content snapshot request scoped by the selector
// (the strategy's when the model named one). The extraction itself runs in the extraction node when
// the content arrives.
import { ExtractRequest, type SnapshotRequest } from '@tandem/contracts';
import { z } from 'zod';
import type { AgentDeps } from '../../deps';
import type { InteractStateType } from '../../state';
import { isExtractionGoal } from '../../collect/extraction-goal';

/** The `extract` field of the action step's answer. */
export const ExtractField = z
  .object({
    query: z.string().max(2_000).nullable().optional(),
    outputSchema: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe('JSON Schema of the data, e.g. an array of objects with typed properties.'),
    cssSelector: z.string().max(1_000).nullable().optional(),
    extractionId: z.string().max(100).nullable().optional(),
  })
  .nullable()
  .optional()
  .describe(
    'Optional: extract structured data from this page on the server (stored; you get a summary). The action is then not executed. Null otherwise.',
  );

type ModelExtract = NonNullable<z.infer<typeof ExtractField>>;

/**
 * The extract field (docs/specs.md, "the strategy cache"), and its prompt guidance to reuse an
 * extraction_id on similar pages.
 */
export const EXTRACT_PROMPT_RULES = [
  'Structured extraction: to get many items or a table as data ("every product as JSON with name, price and rating"), set extract: {"query": "…", "outputSchema": <JSON Schema>, "cssSelector": optional scope}. The server reads this page, extracts, stores the data and tells you what it got; you never copy the data yourself.',
  'If you see an extraction_id from a previous extraction and are on a structurally similar page (the next page of the same list), reuse it: extract: {"extractionId": "…"}; the results are merged without duplicates. Then go on (next page, or finish with a one-line summary of the counts).',
].join('\n');

/** Whether the prompt explains extract: extraction goals, and tasks that already extracted. */
export function isExtracting(deps: AgentDeps, state: InteractStateType): boolean {
  return (
    deps.extraction !== undefined &&
    (state.extractionNotes.length > 0 || isExtractionGoal(state.query))
  );
}

/** The model's extract as a valid request, or why it is not one (told back to the model). */
export function parseModelExtract(
  extract: ModelExtract,
): { ok: true; request: ExtractRequest } | { ok: false; reason: string } {
  const parsed = ExtractRequest.safeParse({
    ...(extract.query ? { query: extract.query } : {}),
    ...(extract.outputSchema ? { outputSchema: extract.outputSchema } : {}),
    ...(extract.cssSelector ? { cssSelector: extract.cssSelector } : {}),
    ...(extract.extractionId ? { extractionId: extract.extractionId } : {}),
  });
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: `extract is not valid (${issue?.path.join('.') || 'extract'}: ${issue?.message ?? 'invalid'})`,
  };
}

/**
 * The content snapshot an extraction reads: HTML (the extractor needs the elements).
 * `pageLinks`: the read must tell whether the page links on past it (a routine's last read of
 * a paged list, routines/leads-on.ts); a snapshot scoped to the list then also lists the links
 * outside it, where the pager is. An unscoped one holds them all already.
 */
export async function extractionSnapshot(
  deps: AgentDeps,
  state: InteractStateType,
  request: ExtractRequest,
  pageLinks = false,
): Promise<SnapshotRequest> {
  let selector = request.cssSelector;
  if (!selector && request.extractionId && deps.extraction) {
    const strategy = await deps.extraction.cache.get(state.tenantId, request.extractionId);
    selector = strategy?.cssSelector ?? undefined;
  }
  return {
    mode: 'content',
    format: 'html',
    ...(selector ? { selector, ...(pageLinks ? { pageLinks: true } : {}) } : {}),
  };
}

/**
 * Strategies learned on pages like this one (find_matching, docs/specs.md, "the strategy cache"):
 * the model may reuse one by its id, in this task or a later one. Ids, queries and field names
 * only.
 */
export async function knownStrategiesLine(
  deps: AgentDeps,
  state: InteractStateType,
  url: string,
): Promise<string> {
  if (!deps.extraction) return '';
  // The task's own extractions are already in the prompt with their summaries.
  const own = new Set(state.extractionNotes.map((note) => note.extractionId));
  const known = (await deps.extraction.cache.findMatching(state.tenantId, url))
    .filter((strategy) => !own.has(strategy.id))
    .slice(0, 3);
  if (known.length === 0) return '';
  const lines = known.map(
    (s) =>
      `- extraction_id=${s.id}: "${s.queryTemplate.slice(0, 200)}" (worked ${s.successCount}×, failed ${s.failureCount}×)`,
  );
  return `Extraction strategies known for this page (reuse with extract: {"extractionId": "…"}):\n${lines.join('\n')}`;
}
