// The engine of the scripted models outside this package (e2e, benches), in one light entry (no
// graph, no store): which node a call is from, the prompt readers that sit beside the prompt
// builders, the answers every scripted model gives the same way, and scenarios as data (per
// node, an answer or a function of the call) behind the Gemini wire.
import type { ServerResponse } from 'node:http';
import { answerFromPrompt } from '@tandem/extraction/testing';
import {
  fakeEmbedding,
  geminiTextResponse,
  readGeminiRequest,
  startGeminiWire,
  type GeminiCall,
  type GeminiWire,
  type InlineImage,
  type WireReply,
  type WireRequest,
} from '@tandem/llm/testing';
import type { z } from 'zod';
import type { ContextAnalysisOutput } from '../nodes/context-analysis/prompt';
import type { CorrectionOutput } from '../nodes/correction/prompt';
import type { CriticOutput } from '../nodes/critic/prompt';
import { PlanningOutput } from '../nodes/planning/prompt';
import { goalOf } from '../nodes/action-generation/read-prompt';
import { nodeOfSystem } from './node-of-system';

export { nodeOfSystem } from './node-of-system';
export { elementsIn, named, usable, type Element } from '../page/read-tree';
export { historyOf, type History } from '../nodes/read-history';
export {
  goalOf,
  readActionPrompt,
  sectionAfter,
  type ActionPrompt,
} from '../nodes/action-generation/read-prompt';

// The shared answers are typed by the nodes' own output schemas, so a changed schema fails the
// typecheck here rather than at run time in one of the scripted models.

/** Context analysis' answer when the page and the goal hold everything the task needs. */
export const PAGE_IS_ENOUGH = {
  source: 'PAGE',
  requiredSources: ['PAGE'],
  missingInformation: [],
  searchQuery: null,
  reasoning: 'The goal states every value needed.',
} as const satisfies ContextAnalysisOutput;

/** The critic's answer in scenarios whose actions are right. */
export const APPROVE = {
  approve: true,
  reason: 'The action fits the goal and the page.',
  evidence: 'The page shows the expected state.',
} as const satisfies CriticOutput;

/** Correction's answer when waiting is all a scenario needs. */
export const RETRY_WITH_DELAY = {
  strategy: 'RETRY_WITH_DELAY',
  action: 'wait(1)',
  reason: 'Give the page a moment.',
} as const satisfies z.infer<typeof CorrectionOutput>;

/** One call as a scripted model reads it. */
export interface ModelCall {
  node: string;
  prompt: string;
  /** The goal the prompt names ('' when it names none). */
  goal: string;
  /** The request's image parts, in order (hybrid mode's screenshot). */
  images: InlineImage[];
}

/** A `generateContent` request (readGeminiRequest) as a model reads it. */
export function modelCallOf({ system, prompt, images }: GeminiCall): ModelCall {
  return { node: nodeOfSystem(system), prompt, goal: goalOf(prompt), images };
}

/** A node's answer: a value, or a function of the call (null: not this scenario's to answer). */
export type NodeAnswer = object | ((call: ModelCall) => unknown);

/** A scenario's answers by node. */
export type Answers = Partial<Record<string, NodeAnswer>>;

export interface Scenario {
  /** The calls the scenario is for (its goals or pages). */
  applies(call: ModelCall): boolean;
  answers: Answers;
}

/** The answers of context analysis, the critic and correction most scenarios give. */
export const USUAL_ANSWERS: Answers = {
  context_analysis: PAGE_IS_ENOUGH,
  critic: APPROVE,
  correction: RETRY_WITH_DELAY,
};

/**
 * The table's answer for the call, or null when it has none. Re-planning answers like planning
 * (the same schema, a plan from this page) unless the table says otherwise.
 */
export function answerOf(answers: Answers, call: ModelCall): unknown {
  if (call.node === 'context_planning' && !answers.context_planning)
    return contextWithPlan(call, (node) => answerOf(answers, { ...call, node }));
  const entry = answers[call.node] ?? (call.node === 'replanning' ? answers.planning : undefined);
  if (entry === undefined) return null;
  return typeof entry === 'function' ? entry(call) : entry;
}

/**
 * Context analysis that plans in the same call, from a scenario's two answers: the analysis,
 * with the plan when the sources are the page or memory (a search or a question comes first
 * otherwise). Null when the scenario has no analysis.
 */
function contextWithPlan(call: ModelCall, answerFor: (node: string) => unknown): unknown {
  const analysis = answerFor('context_analysis') as ContextAnalysisOutput | null;
  if (!analysis) return null;
  const sources = [analysis.source, ...analysis.requiredSources];
  const waits = sources.some((s) => s === 'WEB_SEARCH' || s === 'ASK_USER');
  // A scenario without a plan of its own leaves planning to its own call.
  const plan = waits ? null : PlanningOutput.safeParse(answerFor('planning'));
  return { ...analysis, plan: plan?.success ? plan.data : null };
}

/** The answer of the first scenario that applies and answers the node; else `fallback`'s. */
export function answerFirst(
  scenarios: readonly Scenario[],
  call: ModelCall,
  fallback: (call: ModelCall) => unknown,
): unknown {
  if (call.node === 'context_planning')
    return contextWithPlan(call, (node) => answerFirst(scenarios, { ...call, node }, fallback));
  for (const scenario of scenarios) {
    const answered = scenario.applies(call) ? answerOf(scenario.answers, call) : null;
    if (answered !== null) return answered;
  }
  return fallback(call);
}

/** Action generation's answer. */
export interface ActionAnswer {
  thought: string;
  action: string;
  chain: { action: string; description: string }[] | null;
  confidence: number;
  /** What the answer asks for besides (extract, readPage, collect…). */
  [more: string]: unknown;
}

/** An action answer; `more` overrides the defaults in place, so the JSON keeps its key order. */
export const act = (thought: string, action: string, more: Partial<ActionAnswer> = {}) =>
  ({ thought, action, chain: null, confidence: 0.9, ...more }) as ActionAnswer;

/** A chain of actions as an obeying model numbers it, or null for a single action. */
export const chainOf = (actions: readonly string[]) =>
  actions.length > 1
    ? actions.map((action, index) => ({ action, description: `step ${index + 1}` }))
    : null;

/** A plan of steps with one refinability. */
export const plan = (goal: string, steps: readonly string[], refinable = false) => ({
  goal,
  steps: steps.map((description) => ({ description, refinable })),
});

/** Verification's answer: the action took effect, the task is `done` or not. */
export const verdict = (done: boolean, reason: string, confidence = done ? 0.95 : 0.8) => ({
  action_succeeded: true,
  task_completed: done,
  confidence,
  reason,
});

/** One call as the double recorded it. */
export interface RecordedCall extends ModelCall {
  /** When it arrived (epoch ms). */
  at: number;
  /** The system prompt, which precedes the prompt in what the provider reads. */
  system: string;
  /** What the model answered (JSON text), once it answered. */
  answer?: string;
}

/** An answer sent as this JSON text, unparsed: a key such as `__proto__` reaches the server. */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface ModelDoubleOptions {
  /** The extraction sub-agent's answer; by default read from the content in its prompt. */
  extract?: (prompt: string) => unknown;
  /** The document agents' tool-calling turns (@tandem/documents/testing's geminiTurnResponse). */
  converse?: (body: never) => object;
  /** Fake vectors for embedding requests, which a server given a Gemini key makes. */
  embeddings?: boolean;
  /** Runs before a call is answered: a test's hold, a model's latency. */
  before?: (call: RecordedCall, res: ServerResponse) => unknown;
  /** The caller's own routes (a test's control), tried first; undefined for any other path. */
  route?: (request: WireRequest, res: ServerResponse) => WireReply | Promise<WireReply> | undefined;
  /** Keeps every call in `log`: for assertions and the prefix share, not for a long soak. */
  record?: boolean;
  /** Bills the prompt without its system part, as the e2e suite has always counted it. */
  promptOnly?: boolean;
}

export interface ModelDouble extends GeminiWire {
  /** Calls answered per graph node (a cross-check; benches report the server's own counts). */
  calls: Record<string, number>;
  /** Every call, oldest first, when `record` is set. */
  log: RecordedCall[];
}

interface EmbedRequest {
  content?: { parts?: { text?: string }[] };
  outputDimensionality?: number;
}

const embed = (r: EmbedRequest) => ({
  values: fakeEmbedding(
    (r.content?.parts ?? []).map((p) => p.text ?? '').join(''),
    r.outputDimensionality ?? 768,
  ),
});

/** `:embedContent` and `:batchEmbedContents` answers, or null for other paths. */
function embeddingsOf({ path, body }: WireRequest): object | null {
  if (path.includes(':batchEmbedContents'))
    return { embeddings: ((body as { requests?: EmbedRequest[] }).requests ?? []).map(embed) };
  return path.includes(':embedContent') ? { embedding: embed(body as EmbedRequest) } : null;
}

/**
 * The scripted model behind the Gemini wire, for the e2e suite and every bench: the real
 * server's SDK calls it through GEMINI_BASE_URL, so what they assert and measure comes from
 * real HTTP calls. `answer` answers the graph's nodes; the extraction sub-agent, the document
 * agents and embeddings are answered as `options` says.
 */
export async function startModelDouble(
  answer: (call: ModelCall) => unknown,
  options: ModelDoubleOptions = {},
): Promise<ModelDouble> {
  const { extract = answerFromPrompt, converse, before, route } = options;
  const calls: Record<string, number> = {};
  const log: RecordedCall[] = [];
  const count = (node: string) => (calls[node] = (calls[node] ?? 0) + 1);
  const wire = await startGeminiWire(async (request, res) => {
    const own = route?.(request, res);
    if (own !== undefined) return own;
    const embedded = options.embeddings ? embeddingsOf(request) : null;
    if (embedded) return (count('embeddings'), embedded);
    const read = readGeminiRequest(request.body);
    const call: RecordedCall = { ...modelCallOf(read), system: read.system, at: Date.now() };
    // A tool-calling turn's "goal" is the tool whose result it answers, so a test can hold one.
    if (read.tools.length > 0)
      Object.assign(call, {
        node: 'document_extraction',
        goal: `after:${read.answered ?? 'start'}`,
      });
    count(call.node);
    if (options.record) log.push(call);
    await before?.(call, res);
    if (converse && read.tools.length > 0) return converse(request.body as never);
    const value = call.node === 'extraction' ? extract(call.prompt) : answer(call);
    call.answer = value instanceof JsonText ? value.text : JSON.stringify(value);
    const billed = (options.promptOnly ? '' : read.system).length + read.prompt.length;
    return geminiTextResponse(call.answer, billed);
  });
  return { ...wire, calls, log };
}

export {
  collectAction,
  extractAction,
  type CollectScript,
  type ExtractScript,
} from './data-scripts';
export * from './intent-scripts';
