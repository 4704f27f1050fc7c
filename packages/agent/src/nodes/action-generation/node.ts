// The LLM action step (docs/specs.md, "step refinement or LLM action"): thought + action (or a safe
// chain), validated against the grammar and the current tree; googleSearch runs server-side and
// becomes wait(1). The same answer may ask to read the page first (docs/specs.md, "page snapshots")
// or carry collected items (docs/specs.md, "streaming extraction"). Before the model, a page the
// tree does not cover is captured again (capture.ts): the whole DOM, or a screenshot the model sees
// as an image part and may answer with clickAt.
import type { ChainAction, ParsedAction, SnapshotRequest } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { checkChainSafety } from '../../engines/chain-safety';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { manageSearch, REFUSED_QUERY } from '../../web-search/manage-search';
import { validateAction } from '../action-check';
import { afterAction, policyOf, searchProblem, taskRules } from '../action-policy';
import { renderHistory, verificationLine } from '../history';
import { llmContext, logFor, withUsage, withUsageOf } from '../node-context';
import { readPage, refusal } from '../outcomes';
import { makePending } from '../pending-action';
import { collectedSummaryLine, collectedTotal } from '../../collect/summary';
import { isExtractionGoal } from '../../collect/extraction-goal';
import { extractionLines } from '../extraction/node';
import { captureStep, imagesFor } from './capture';
import { routeMissingInfo, type MissingInfo } from './missing-info';
import { skillsFor } from '../skills';
import {
  extractionSnapshot,
  isExtracting,
  knownStrategiesLine,
  parseModelExtract,
} from './extract';
import {
  ActionGenerationOutput,
  actionGenerationPrompt,
  actionGenerationSystemFor,
} from './prompt';

/** Answers the model gets to name a valid action; a rejected one is explained to it. */
export const ACTION_GENERATION_ATTEMPTS = 2;

export function renderPlan(state: InteractStateType): string {
  if (!state.plan) return '(no plan)';
  return state.plan.steps
    .map(
      (s) =>
        `${s.index === state.currentStepIndex ? '→' : ' '} ${s.index + 1}. ${s.description} [${s.status}]`,
    )
    .join('\n');
}

/** One answer of the model, with what its collect items did, and the page it was given. */
interface Turn {
  state: InteractStateType;
  page: PageState;
  tokens: InteractStateType['tokens'];
  out: ActionGenerationOutput;
  collected: Collected;
}

type Decision = InteractStateUpdate | { rejected: string; safety?: true | undefined };

interface Rejection {
  action: string;
  reason: string;
  safety: boolean;
}

/**
 * What the user reads when the model's answers ran out. A step the task's own rules refused
 * (its sites, a secret's sites, data from another site, a step the user rejected) says so: a
 * page may be steering the agent. Anything else is the model failing the grammar or the page.
 */
function endMessage(last: Rejection | null): string {
  if (!last) return 'The model kept producing invalid actions.';
  if (last.safety)
    return (
      `Stopped for safety: the agent kept proposing ${last.action}, which this task may not do ` +
      `(${last.reason}). If the page asked for it, it may be trying to misuse the agent.`
    );
  return `The model kept producing invalid actions: ${last.action} was rejected: ${last.reason}.`;
}

export const actionGeneration =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('action_generation needs the page state');
    const early = captureStep(deps, state, page);
    if (early) return early;
    // Hybrid mode: the screenshot goes to the model as an image part, and clickAt is offered.
    const images = imagesFor(deps, page);
    const collecting = isCollecting(deps, state);
    const extracting = isExtracting(deps, state);
    const extractions = extracting
      ? [extractionLines(state.extractionNotes), await knownStrategiesLine(deps, state, page.url)]
          .filter(Boolean)
          .join('\n\n')
      : '';
    const skills = await skillsFor(deps, state, page.url);
    let tokens = state.tokens;
    let counts = state.collectedCounts;
    let duplicatesSkipped = state.duplicatesSkipped;
    // The critic's reason for rejecting the last proposal (same request), read once.
    let feedback = state.criticFeedback ?? '';
    let lastRejection: Rejection | null = null;
    for (let attempt = 0; attempt < ACTION_GENERATION_ATTEMPTS; attempt++) {
      const result = await deps.llm.generate({
        node: 'action_generation',
        actionType: state.plan?.steps[state.currentStepIndex]?.refinable
          ? 'REFINEMENT'
          : 'ACTION_GENERATION',
        system: actionGenerationSystemFor({ collecting, extracting, hybrid: images !== undefined }),
        prompt: promptFor({ ...state, collectedCounts: counts }, page, feedback, {
          collecting,
          extractions,
          skills: skills.text,
        }),
        schema: ActionGenerationOutput,
        schemaName: 'next_action',
        ...(images ? { images } : {}),
        context: llmContext(state),
      });
      tokens = withUsage({ tokens }, result);
      const out = result.output;
      // Collect runs here, inside this request, before anything else: the items go to the
      // store and only the counts come back into the state (docs/specs.md, "streaming extraction").
      const collected = await collectItems(
        deps,
        { ...state, collectedCounts: counts, duplicatesSkipped },
        out,
        page.url,
      );
      counts = collected.counts;
      duplicatesSkipped = collected.duplicatesSkipped;
      const decision = await decide(deps, { state, page, tokens, out, collected });
      if (!('rejected' in decision)) {
        // The lessons shown for this action: its verification scores them.
        const shown = skills.ids.length > 0 || state.skillHintIds.length > 0;
        return {
          ...decision,
          ...(shown ? { skillHintIds: skills.ids } : {}),
          // What the critic reads to decide whether this proposal needs a review.
          ...(out.confidence !== state.actionConfidence
            ? { actionConfidence: out.confidence }
            : {}),
          ...(state.criticFeedback !== null ? { criticFeedback: null } : {}),
        };
      }
      logFor(deps, state, 'action_generation').warn('model action rejected', {
        action: out.action,
        reason: decision.rejected,
        attempt,
      });
      feedback = `Your previous answer ${out.action} was rejected: ${decision.rejected}. Answer with a valid action on a listed id.`;
      lastRejection = { action: out.action, reason: decision.rejected, safety: !!decision.safety };
    }
    return {
      tokens,
      collectedCounts: counts,
      duplicatesSkipped,
      ...refusal('INVALID_ACTION', endMessage(lastRejection), true),
    };
  };

/** Whether this task collects: the prompt then explains collect and shows the counts. */
function isCollecting(deps: AgentDeps, state: InteractStateType): boolean {
  return (
    deps.collect !== undefined &&
    (state.collectLimit !== null ||
      collectedTotal(state.collectedCounts) > 0 ||
      isExtractionGoal(state.query))
  );
}

function promptFor(
  state: InteractStateType,
  page: PageState,
  feedback: string,
  options: { collecting: boolean; extractions: string; skills: string },
): string {
  const { collecting } = options;
  return actionGenerationPrompt({
    query: state.query,
    page,
    plan: renderPlan(state),
    history: renderHistory(state),
    verification: verificationLine(state),
    conversation: state.conversation,
    rag: state.ragContext.text,
    web: state.webSearchSummary,
    feedback,
    collected: collecting ? collectedSummaryLine(state.collectedCounts, state.collectLimit) : '',
    extractions: options.extractions,
    skills: options.skills,
    rules: taskRules(state),
  });
}

/** What the answer leads to: finishing at the collect limit, a page read, or an action. */
async function decide(deps: AgentDeps, turn: Turn): Promise<Decision> {
  const { state, page, out, collected } = turn;
  if (collected.limitReached) {
    const total = collectedTotal(collected.counts);
    return pendingUpdate(turn, { name: 'finish', args: { message: `Collected ${total} items.` } });
  }
  if (out.missingInfo && out.missingInfo.length > 0) {
    return missingInfoDecision(deps, turn, out.missingInfo);
  }
  const canRead = state.pageReadsThisStep < deps.limits.maxPageReadsPerStep;
  if (out.extract && deps.extraction && canRead) return extractRead(deps, turn, out.extract);
  if (out.readPage && canRead) return pageRead(deps, turn, out.readPage);
  const checked = validateAction(out.action, page, policyOf(state));
  if (!checked.ok) return { rejected: checked.reason, safety: checked.safety };
  if (checked.action.name === 'googleSearch')
    return googleSearch(deps, turn, checked.action.args.query);
  const chain = chainOf(deps, turn, checked.actionString);
  return pendingUpdate(turn, checked.action, chain);
}

/** The turn's thought, with what collect stored or skipped (keys and counts, never data). */
const thoughtOf = (turn: Turn, thought = turn.out.thought) =>
  turn.collected.note ? `${thought}\n${turn.collected.note}` : thought;

function pendingUpdate(
  turn: Turn,
  action: ParsedAction,
  chain: ChainAction[] | null = null,
  thought = thoughtOf(turn),
): InteractStateUpdate {
  return {
    tokens: turn.tokens,
    collectedCounts: turn.collected.counts,
    duplicatesSkipped: turn.collected.duplicatesSkipped,
    pending: makePending({
      state: turn.state,
      page: turn.page,
      thought,
      action,
      chain: chain ? { actions: chain } : null,
      source: 'action_generation',
    }),
  };
}

/**
 * Reading the page (docs/specs.md, "reading the page"): the client answers with a snapshot on its
 * next request and executes nothing; the graph then reasons again on the same step with the text in
 * the prompt.
 */
function pageRead(
  deps: AgentDeps,
  turn: Turn,
  read: NonNullable<ActionGenerationOutput['readPage']>,
): InteractStateUpdate {
  const request: SnapshotRequest = {
    mode: read.mode,
    // Content reads as Markdown: headings, lists and tables are what a model reads best.
    ...(read.mode === 'content' ? { format: 'markdown' as const } : {}),
    ...(read.grep ? { grep: read.grep } : {}),
    ...(read.selector ? { selector: read.selector } : {}),
  };
  logFor(deps, turn.state, 'action_generation').info('reading the page', { mode: request.mode });
  return {
    tokens: turn.tokens,
    collectedCounts: turn.collected.counts,
    duplicatesSkipped: turn.collected.duplicatesSkipped,
    pageRequest: request,
    pageReadsThisStep: turn.state.pageReadsThisStep + 1,
    ...readPage(thoughtOf(turn)),
  };
}

/**
 * Structured extraction (docs/specs.md, "extraction overhaul") needs the page's content; the client
 * answers with it (executing nothing) and the extraction node runs on it, then the model reasons
 * again.
 */
async function extractRead(
  deps: AgentDeps,
  turn: Turn,
  extract: NonNullable<ActionGenerationOutput['extract']>,
): Promise<Decision> {
  const parsed = parseModelExtract(extract);
  if (!parsed.ok) return { rejected: parsed.reason };
  const request = await extractionSnapshot(deps, turn.state, parsed.request);
  logFor(deps, turn.state, 'action_generation').info('extracting', {
    extractionId: parsed.request.extractionId ?? null,
    selector: request.selector ?? null,
  });
  return {
    tokens: turn.tokens,
    collectedCounts: turn.collected.counts,
    duplicatesSkipped: turn.collected.duplicatesSkipped,
    pageRequest: request,
    pendingExtraction: parsed.request,
    pageReadsThisStep: turn.state.pageReadsThisStep + 1,
    ...readPage(thoughtOf(turn)),
  };
}

/**
 * MISSING_INFO (docs/specs.md, "dynamic interrupt"): search for a public fact, ask the user, or
 * refuse to invent.
 */
async function missingInfoDecision(
  deps: AgentDeps,
  turn: Turn,
  items: MissingInfo,
): Promise<Decision> {
  const route = routeMissingInfo(deps, turn.state, items, thoughtOf(turn));
  logFor(deps, turn.state, 'action_generation').info('missing information', {
    missing: items.map((i) => `${i.kind}: ${i.what}`),
    route: route.kind,
  });
  if (route.kind === 'search') return googleSearch(deps, turn, route.query);
  if (route.kind === 'refuse') return { rejected: route.reason };
  return {
    tokens: turn.tokens,
    collectedCounts: turn.collected.counts,
    duplicatesSkipped: turn.collected.duplicatesSkipped,
    ...route.update,
  };
}

/**
 * A public fact (docs/specs.md, "dynamic interrupt"): run the search, put the results in the
 * thought, and have the client wait.
 */
async function googleSearch(
  deps: AgentDeps,
  turn: Turn,
  query: string,
): Promise<InteractStateUpdate> {
  const policy = policyOf(turn.state);
  const outcome = await manageSearch({
    webSearch: deps.webSearch,
    llm: deps.llm,
    query,
    url: turn.page.url,
    context: llmContext(turn.state),
    maxAttempts: 1,
    refuse: (q) => searchProblem(q, policy),
  });
  const refused = outcome.attempts.find((a) => a.query === REFUSED_QUERY)?.error;
  const thought = refused
    ? `${thoughtOf(turn)}\nThe web search was not sent: ${refused}.`
    : `${thoughtOf(turn)}\nSearch results for "${query}":\n${outcome.summary || '(no results)'}`;
  return {
    ...pendingUpdate(turn, { name: 'wait', args: { seconds: 1 } }, null, thought),
    tokens: withUsageOf({ tokens: turn.tokens }, outcome.calls),
    webSearchSummary: outcome.summary,
  };
}

/**
 * The answer's chain, when every item is a valid action on this page, it starts with the
 * answer's action and the chain-safety rules (docs/specs.md, "action chaining") allow it; otherwise
 * null (the first action is sent alone).
 */
function chainOf(deps: AgentDeps, turn: Turn, first: string): ChainAction[] | null {
  const { out, page } = turn;
  if (!out.chain || out.chain.length <= 1) return null;
  let limited = out.chain.slice(0, deps.limits.maxChainLength);
  // Each action is judged with what the chain typed before it: a number split across fields.
  let policy = policyOf(turn.state);
  let strings = limited.map((c) => {
    const checked = validateAction(c.action, page, policy);
    if (!checked.ok) return null;
    policy = afterAction(policy, checked.action);
    return checked.actionString;
  });
  let verdict = checkChainSafety(
    strings.map((s) => s ?? ''),
    page.tree,
  );
  const refused = !verdict.safe || strings.some((s) => s === null);
  if (refused && limited.length > 2 && /^\s*click\(/.test(limited.at(-1)?.action ?? '')) {
    // A button that may not end this chain goes alone later; the fields still go together.
    const fieldsOnly = checkChainSafety(
      strings.slice(0, -1).map((s) => s ?? ''),
      page.tree,
    );
    if (fieldsOnly.safe) {
      limited = limited.slice(0, -1);
      strings = strings.slice(0, -1);
      verdict = fieldsOnly;
    }
  }
  if (strings.some((s) => s === null) || strings[0] !== first || !verdict.safe) {
    logFor(deps, turn.state, 'action_generation').info(
      'chain refused; sending the first action alone',
      {
        reason: verdict.safe ? 'chain does not start with action' : verdict.reason,
      },
    );
    return null;
  }
  return limited.map((c, index) => ({
    action: strings[index] ?? c.action,
    description: c.description,
    index,
    ...(c.canFail ? { canFail: true } : {}),
  }));
}

interface Collected {
  counts: InteractStateType['collectedCounts'];
  /** Duplicates skipped so far in the task (this answer's added). */
  duplicatesSkipped: number;
  /** What was stored or skipped, for the thought (keys and counts, never the data). */
  note: string;
  limitReached: boolean;
}

/** Stores the answer's collect items; a model slip in one item never fails the step. */
async function collectItems(
  deps: AgentDeps,
  state: InteractStateType,
  out: ActionGenerationOutput,
  sourceUrl: string,
): Promise<Collected> {
  const items = out.collect ?? [];
  if (items.length === 0 || !deps.collect) {
    return {
      counts: state.collectedCounts,
      duplicatesSkipped: state.duplicatesSkipped,
      note: '',
      limitReached: false,
    };
  }
  const result = await deps.collect.collectMany({
    tenantId: state.tenantId,
    taskId: state.taskId,
    items,
    sourceUrl,
    collectLimit: state.collectLimit,
  });
  // Counts, and why an item was refused; duplicates only as a count (people scan the live
  // view, and a long extraction repeats items on every page).
  const refused = result.outcomes.filter((o) => o.status === 'invalid').map((o) => o.message);
  const duplicates = result.outcomes.filter((o) => o.status === 'duplicate').length;
  return {
    counts: result.counts,
    duplicatesSkipped: state.duplicatesSkipped + duplicates,
    note: [result.message, ...refused.slice(0, 5)].join('\n'),
    limitReached: result.limitReached,
  };
}
