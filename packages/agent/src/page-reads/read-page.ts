// Reading the page (docs/specs.md, "reading the page"): instead of acting, the model may ask for
// the page's outline or the content of some sections; the client answers with a snapshot on
// its next request and executes nothing, and the graph reasons again on the same step.
import type { SnapshotRequest } from '@tandem/contracts';
import { z } from 'zod';
import type { AgentDeps } from '../deps';
import { turnUpdate, thoughtOf, type ActionTurn } from '../nodes/action-generation/part';
import { readPage } from '../nodes/outcomes';
import type { InteractStateType, InteractStateUpdate } from '../state';

/** The `readPage` field of the action step's answer. */
export const ReadPageField = z
  .object({
    mode: z.enum(['outline', 'content']),
    grep: z.string().max(1_000).nullable().optional(),
    selector: z.string().max(1_000).nullable().optional(),
  })
  .nullable()
  .optional()
  .describe(
    'Optional: read the page before acting (outline: sections and xpaths; content: text of the sections matching grep/selector). The action is then not executed. Null otherwise.',
  );

/** Whether the step may still ask for a snapshot (a model cannot loop on reading). */
export const canReadPage = (deps: AgentDeps, state: InteractStateType): boolean =>
  state.pageReadsThisStep < deps.limits.maxPageReadsPerStep;

/** Asks the client for a snapshot instead of acting; `extra` is what the reader waits with. */
export function askSnapshot(
  turn: ActionTurn,
  request: SnapshotRequest,
  extra: InteractStateUpdate = {},
): InteractStateUpdate {
  return {
    ...turnUpdate(turn),
    pageRequest: request,
    ...extra,
    pageReadsThisStep: turn.state.pageReadsThisStep + 1,
    ...readPage(thoughtOf(turn)),
  };
}
