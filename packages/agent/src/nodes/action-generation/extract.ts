// The model's `extract` answer (docs/specs.md, "schema-enforced extraction"): checked against
// contracts' ExtractRequest, then turned into a content snapshot request scoped by the selector
// (the strategy's when the model named one). The extraction itself runs in the extraction node when
// the content arrives.
import { ExtractRequest, type SnapshotRequest } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { InteractStateType } from '../../state';
import { isExtractionGoal } from '../../collect/extraction-goal';
import type { ActionGenerationOutput } from './prompt';

type ModelExtract = NonNullable<ActionGenerationOutput['extract']>;

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

/** The content snapshot an extraction reads: HTML (the extractor needs the elements). */
export async function extractionSnapshot(
  deps: AgentDeps,
  state: InteractStateType,
  request: ExtractRequest,
): Promise<SnapshotRequest> {
  let selector = request.cssSelector;
  if (!selector && request.extractionId && deps.extraction) {
    const strategy = await deps.extraction.cache.get(state.tenantId, request.extractionId);
    selector = strategy?.cssSelector ?? undefined;
  }
  return { mode: 'content', format: 'html', ...(selector ? { selector } : {}) };
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
