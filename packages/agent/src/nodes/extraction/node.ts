// Structured extraction in the loop (docs/specs.md, "schema-enforced extraction"): the model asked
// for `extract`, the client answered with the page content (an HTML content snapshot scoped by the
// selector), and this node runs the extraction server-side. The data goes to the store; the state
// keeps one summary line per extraction, so later prompts stay the same size however much was
// extracted. Then the model reasons again on the same step with the summary in its prompt.
import type { AgentDeps } from '../../deps';
import type { ExtractionNote, InteractStateType, InteractStateUpdate } from '../../state';
import { FAILED_EXTRACTION } from './state';
import { onwardAsk, onwardUpdate } from '../../routines/leads-on';
import { traceRead } from '../../routines/trace';
import { llmContext, logFor, withSpent } from '../node-context';

export const extraction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const request = state.pendingExtraction;
    const page = state.page;
    if (!request || !page) return { pendingExtraction: null };
    // The content is for this node only: never left in the page the next prompt describes.
    const cleared = { pendingExtraction: null, page: { ...page, snapshot: null } };
    const snapshot = page.snapshot;
    const problem =
      !snapshot || snapshot.mode !== 'content'
        ? 'the page content did not arrive'
        : snapshot.error
          ? `the page could not be read: ${snapshot.error}`
          : !deps.extraction
            ? 'extraction is not available on this server'
            : null;
    if (problem || !deps.extraction || !snapshot) {
      return { ...cleared, ...failed(state, page.url, problem ?? 'unavailable') };
    }
    const onward = onwardAsk(state, page.url, snapshot.links);
    try {
      const out = await deps.extraction.run({
        tenantId: state.tenantId,
        taskId: state.taskId,
        context: llmContext(state),
        url: page.url,
        html: snapshot.text,
        request,
        applySelector: false,
        // A routine's last read: whether its page leads on past it (routines/leads-on.ts), by
        // the links of the HTML read and, for a snapshot scoped to the list, those the client
        // listed outside it.
        ...(onward ? { onward } : {}),
      });
      const stats = out.result.contentStats;
      logFor(deps, state, 'extraction').info('extracted', {
        method: out.result.method,
        items: stats.items,
        chunks: stats.chunks,
        modelCalls: stats.modelCalls,
        isPartial: out.result.isPartial,
      });
      const aggregate = out.aggregate;
      const note: ExtractionNote = {
        extractionId: out.record.extractionId ?? out.record.id,
        items: aggregate ? aggregate.items : stats.items,
        pages: aggregate?.pages ?? 1,
        isPartial: aggregate?.isPartial ?? out.result.isPartial,
        summary: out.summary,
      };
      return {
        ...cleared,
        extractionNotes: withNote(state.extractionNotes, note),
        // What a routine made of this run replays here (routines/compile.ts).
        ...traceRead(state, page.url, {
          extractionId: out.record.extractionId,
          items: stats.items,
          summary: note.summary,
        }),
        ...onwardUpdate(state, out.onward),
        tokens: withSpent(state, {
          input: stats.inputTokens,
          output: stats.outputTokens,
          calls: stats.modelCalls,
          costMicroUsd: stats.costMicroUsd,
        }),
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logFor(deps, state, 'extraction').warn('extraction failed', { error: message });
      return { ...cleared, ...failed(state, page.url, message) };
    }
  };

/** The note of an extraction replaces the earlier note of the same extractionId. */
function withNote(notes: readonly ExtractionNote[], note: ExtractionNote): ExtractionNote[] {
  return [...notes.filter((n) => n.extractionId !== note.extractionId), note];
}

/** A failed extraction: told to the model, and a read no routine can replay. */
function failed(state: InteractStateType, url: string, reason: string): InteractStateUpdate {
  const extractionNotes = noteFailure(state, reason);
  const summary = extractionNotes.at(-1)?.summary ?? reason;
  return {
    extractionNotes,
    ...traceRead(state, url, { extractionId: null, items: null, summary }),
  };
}

/** A failure is told to the model like a result, so it can retry or act otherwise. */
function noteFailure(state: InteractStateType, reason: string): ExtractionNote[] {
  return withNote(state.extractionNotes, {
    extractionId: FAILED_EXTRACTION,
    items: null,
    pages: 0,
    isPartial: true,
    summary: `The last extraction failed: ${reason.slice(0, 300)}`,
  });
}

/** "Extractions in this task:" lines for the action prompt; empty when there are none. */
export function extractionLines(notes: readonly ExtractionNote[]): string {
  if (notes.length === 0) return '';
  return `Extractions in this task (data stored, not shown):\n${notes.map((n) => `- ${n.summary}`).join('\n')}`;
}
