// The LLM action step (spec 003 Step 1.7/1.8): thought + action (or a safe chain), validated
// against the grammar and the current tree; googleSearch runs server-side and becomes wait(1).
import type { ChainAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { checkChainSafety } from '../../engines/chain-safety';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { manageSearch } from '../../web-search/manage-search';
import {
  llmContext,
  logFor,
  makePending,
  pageReadResponse,
  refusal,
  renderHistory,
  verificationLine,
  validateAction,
  withUsage,
} from '../shared';
import { collectedSummaryLine, collectedTotal } from '../../collect/summary';
import { isExtractionGoal } from '../../collect/extraction-goal';
import {
  ActionGenerationOutput,
  actionGenerationPrompt,
  actionGenerationSystemFor,
} from './prompt';

export function renderPlan(state: InteractStateType): string {
  if (!state.plan) return '(no plan)';
  return state.plan.steps
    .map(
      (s) =>
        `${s.index === state.currentStepIndex ? '→' : ' '} ${s.index + 1}. ${s.description} [${s.status}]`,
    )
    .join('\n');
}

export const actionGeneration =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'action_generation');
    const page = state.page;
    if (!page) throw new Error('action_generation needs the page state');
    const step = state.plan?.steps[state.currentStepIndex];
    const verification = verificationLine(state);
    let tokens = state.tokens;
    let feedback = '';
    let web = state.webSearchSummary;
    const collecting =
      deps.collect !== undefined &&
      (state.collectLimit !== null ||
        collectedTotal(state.collectedCounts) > 0 ||
        isExtractionGoal(state.query));
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await deps.llm.generate({
        node: 'action_generation',
        actionType: step?.refinable ? 'REFINEMENT' : 'ACTION_GENERATION',
        system: actionGenerationSystemFor({ collecting }),
        prompt: actionGenerationPrompt({
          query: state.query,
          page,
          plan: renderPlan(state),
          history: renderHistory(state),
          verification,
          rag: state.ragContext.text,
          web,
          feedback,
          collected: collecting
            ? collectedSummaryLine(state.collectedCounts, state.collectLimit)
            : '',
        }),
        schema: ActionGenerationOutput,
        schemaName: 'next_action',
        context: llmContext(state),
      });
      tokens = withUsage({ ...state, tokens }, result);
      const out = result.output;
      // Collect runs here, inside this request, before anything else: the items go to the
      // store and only the counts come back into the state (spec 000).
      const collected = await collectItems(deps, state, out, page.url);
      const thoughtWith = (thought: string) =>
        collected.note ? `${thought}\n${collected.note}` : thought;
      if (collected.limitReached) {
        const total = collectedTotal(collected.counts);
        return {
          tokens,
          collectedCounts: collected.counts,
          pending: makePending({
            state,
            page,
            thought: thoughtWith(out.thought),
            action: { name: 'finish', args: { message: `Collected ${total} items.` } },
            source: 'action_generation',
          }),
        };
      }
      if (out.readPage && state.pageReadsThisStep < deps.limits.maxPageReadsPerStep) {
        // Spec 002: the client answers with a snapshot on its next request and executes
        // nothing; the graph then reasons again on the same step with the text in the prompt.
        const request = {
          mode: out.readPage.mode,
          // Content reads as Markdown: headings, lists and tables are what a model reads best.
          ...(out.readPage.mode === 'content' ? { format: 'markdown' as const } : {}),
          ...(out.readPage.grep ? { grep: out.readPage.grep } : {}),
          ...(out.readPage.selector ? { selector: out.readPage.selector } : {}),
        };
        log.info('reading the page', { mode: request.mode });
        const next = { ...state, tokens, collectedCounts: collected.counts };
        return {
          tokens,
          collectedCounts: collected.counts,
          pageRequest: request,
          pageReadsThisStep: state.pageReadsThisStep + 1,
          output: {
            response: pageReadResponse(next, thoughtWith(out.thought), request),
            error: null,
            persistTask: true,
          },
        };
      }
      const checked = validateAction(out.action, page);
      if (!checked.ok) {
        log.warn('model action rejected', { action: out.action, reason: checked.reason, attempt });
        feedback = `Your previous answer ${out.action} was rejected: ${checked.reason}. Answer with a valid action on a listed id.`;
        if (attempt >= 1) break;
        continue;
      }
      if (checked.action.name === 'googleSearch') {
        // Spec 003: run the search, put the results in the thought, and have the client wait.
        const outcome = await manageSearch({
          webSearch: deps.webSearch,
          llm: deps.llm,
          query: checked.action.args.query,
          url: page.url,
          context: llmContext(state),
          maxAttempts: 1,
        });
        web = outcome.summary;
        const thought = `${thoughtWith(out.thought)}\nSearch results for "${checked.action.args.query}":\n${outcome.summary || '(no results)'}`;
        return {
          tokens,
          collectedCounts: collected.counts,
          webSearchSummary: web,
          pending: makePending({
            state,
            page,
            thought,
            action: { name: 'wait', args: { seconds: 1 } },
            source: 'action_generation',
          }),
        };
      }
      let chain: ChainAction[] | null = null;
      if (out.chain && out.chain.length > 1) {
        const limited = out.chain.slice(0, deps.limits.maxChainLength);
        const strings = limited.map((c) => {
          const n = validateAction(c.action, page);
          return n.ok ? n.actionString : null;
        });
        const verdict = checkChainSafety(
          strings.map((s) => s ?? ''),
          page.tree,
        );
        if (
          strings.every((s) => s !== null) &&
          strings[0] === checked.actionString &&
          verdict.safe
        ) {
          chain = limited.map((c, index) => ({
            action: strings[index] ?? c.action,
            description: c.description,
            index,
            ...(c.canFail ? { canFail: true } : {}),
          }));
        } else {
          log.info('chain refused; sending the first action alone', {
            reason: verdict.safe ? 'chain does not start with action' : verdict.reason,
          });
        }
      }
      return {
        tokens,
        collectedCounts: collected.counts,
        pending: makePending({
          state,
          page,
          thought: thoughtWith(out.thought),
          action: checked.action,
          chain: chain ? { actions: chain } : null,
          source: 'action_generation',
        }),
      };
    }
    return {
      tokens,
      ...refusal('INVALID_ACTION', `The model kept producing invalid actions: ${feedback}`, true),
    };
  };

/** Stores the answer's collect items; a model slip in one item never fails the step. */
async function collectItems(
  deps: AgentDeps,
  state: InteractStateType,
  out: ActionGenerationOutput,
  sourceUrl: string,
): Promise<{ counts: InteractStateType['collectedCounts']; note: string; limitReached: boolean }> {
  const items = out.collect ?? [];
  if (items.length === 0 || !deps.collect) {
    return { counts: state.collectedCounts, note: '', limitReached: false };
  }
  const result = await deps.collect.collectMany({
    tenantId: state.tenantId,
    taskId: state.taskId,
    items,
    sourceUrl,
    collectLimit: state.collectLimit,
  });
  // Keys and counts only: the next prompt learns what was skipped, never the data.
  const skipped = result.outcomes.filter((o) => o.status !== 'collected').map((o) => o.message);
  return {
    counts: result.counts,
    note: [result.message, ...skipped.slice(0, 5)].join('\n'),
    limitReached: result.limitReached,
  };
}
