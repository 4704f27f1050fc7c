// A tool-calling agent as a LangGraph state machine (the document-extraction agent spec in
// docs/specs.md): the `model` node asks the model for its next turn through the LLM port, the
// `tools` node runs the calls it made, and the two alternate until the model answers without
// calling a tool. The tools do the work (real store writes); the model's words are for the user.
//
// Tools run one after another, in the order the model called them: they write, and a
// complete_extraction called in the same turn as extract_fields must see its fields. A call the
// model can fix (unknown tool, arguments that fail the tool's zod schema, a ToolError) goes back
// as a tool error; anything else is a failure of the run and ends it, with every write made so
// far already in the store.
//
// The run streams LangGraph "custom" events: the model's text, each tool call, and each model
// call's usage (for cost), which the services turn into the spec's SSE events.
import {
  Annotation,
  END,
  START,
  StateGraph,
  type LangGraphRunnableConfig,
} from '@langchain/langgraph';
import { jsonDataProblem, type LlmActionType } from '@tandem/contracts';
import { isToolError, type AgentTool } from './tools';
import type { Tracing } from '@tandem/observability';
import { z } from 'zod';
import type {
  LlmCallContext,
  LlmClient,
  LlmMessage,
  LlmNode,
  LlmToolCall,
  LlmUsage,
} from '@tandem/llm';

/** What a run streams, in order. */
export type ToolAgentEvent =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; tool: string; input: unknown }
  | { kind: 'usage'; model: string; usage: LlmUsage }
  | {
      kind: 'tool_result';
      tool: string;
      isError: boolean;
      content: string;
      /** A write tool's history seq (ToolAgentOptions.writeSeq), read before the next tool runs. */
      seq?: number;
    }
  /** The model still called tools at the turn limit: the run ends without running them. */
  | { kind: 'turn_limit'; turns: number };

export const ToolAgentState = Annotation.Root({
  /** The conversation: the user's request, the model's turns, the tools' results. */
  messages: Annotation<LlmMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  /** Model turns taken in this run. */
  turns: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  /** Set when the run stopped at the turn limit with calls still pending. */
  stoppedAtLimit: Annotation<boolean>({ reducer: (_, b) => b, default: () => false }),
});
export type ToolAgentStateType = typeof ToolAgentState.State;

export interface ToolAgentOptions {
  llm: LlmClient;
  node: LlmNode;
  actionType: LlmActionType;
  system: string;
  tools: readonly AgentTool[];
  context: LlmCallContext;
  tracing?: Tracing;
  /** Model turns before the run stops (a model that never stops calling tools). */
  maxTurns: number;
  /**
   * The history seq of the write a tool just made, asked after each write tool that succeeded
   * and before the next tool runs (the stream's reader may be behind), for the stream's ids.
   */
  writeSeq?: () => Promise<number | null>;
}

/** Routing after the model's turn: run its calls, or end (done, or out of turns). */
export function afterModel(state: ToolAgentStateType, maxTurns: number): 'tools' | typeof END {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant' || last.toolCalls.length === 0) return END;
  return state.turns >= maxTurns ? END : 'tools';
}

const emit = (config: LangGraphRunnableConfig, event: ToolAgentEvent): void => {
  config.writer?.(event);
};

/** One call's outcome as the model reads it. */
/** The stream can go without a number: a store error leaves the write's event unnumbered. */
async function writeSeq(options: ToolAgentOptions): Promise<number | null> {
  try {
    return (await options.writeSeq?.()) ?? null;
  } catch {
    return null;
  }
}

/**
 * One tool call as the model made it, run: an unknown tool, arguments that were no JSON object
 * or fail the tool's schema, and a ToolError come back as an error the model reads; anything
 * else thrown is a failure of the run.
 */
export async function runToolCall(
  call: LlmToolCall,
  tools: ReadonlyMap<string, AgentTool>,
  tracing: Tracing | undefined,
): Promise<{ content: string; isError: boolean }> {
  const tool = tools.get(call.name);
  if (!tool) {
    return {
      content: `There is no tool "${call.name}". The tools are: ${[...tools.keys()].join(', ')}.`,
      isError: true,
    };
  }
  if (call.argsError !== undefined) return { content: call.argsError, isError: true };
  // Before zod copies them: a "__proto__" key would vanish from what the tool stores while it
  // reports it saved, and the arguments are the model's, nested as deep as it likes.
  const problem = jsonDataProblem(call.args);
  if (problem !== null) {
    return { content: `Invalid arguments for ${call.name}: ${problem}`, isError: true };
  }
  const parsed = tool.schema.safeParse(call.args);
  if (!parsed.success) {
    return {
      content: `Invalid arguments for ${call.name}:\n${z.prettifyError(parsed.error)}`,
      isError: true,
    };
  }
  const run = () => tool.run(parsed.data);
  try {
    const content = tracing
      ? await tracing.span(
          `tool:${call.name}`,
          { input: call.args, metadata: { writes: tool.writes } },
          async (span) => {
            const result = await run();
            span.update({ output: result });
            return result;
          },
        )
      : await run();
    return { content, isError: false };
  } catch (error) {
    if (isToolError(error)) return { content: error.message, isError: true };
    throw error;
  }
}

export function buildToolAgentGraph(options: ToolAgentOptions) {
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const declared = options.tools.map(({ name, description, schema }) => ({
    name,
    description,
    schema,
  }));

  async function model(
    state: ToolAgentStateType,
    config: LangGraphRunnableConfig,
  ): Promise<Partial<ToolAgentStateType>> {
    const reply = await options.llm.converse({
      node: options.node,
      actionType: options.actionType,
      system: options.system,
      messages: state.messages,
      tools: declared,
      context: options.context,
      ...(config.signal ? { signal: config.signal } : {}),
    });
    emit(config, { kind: 'usage', model: reply.model, usage: reply.usage });
    if (reply.text.trim() !== '') emit(config, { kind: 'text', text: reply.text });
    for (const call of reply.toolCalls)
      emit(config, { kind: 'tool', tool: call.name, input: call.args });
    const turns = state.turns + 1;
    const stoppedAtLimit = reply.toolCalls.length > 0 && turns >= options.maxTurns;
    if (stoppedAtLimit) emit(config, { kind: 'turn_limit', turns });
    return {
      messages: [
        {
          role: 'assistant',
          text: reply.text,
          toolCalls: reply.toolCalls,
          ...(reply.providerState !== undefined ? { providerState: reply.providerState } : {}),
        },
      ],
      turns,
      stoppedAtLimit,
    };
  }

  async function runTools(
    state: ToolAgentStateType,
    config: LangGraphRunnableConfig,
  ): Promise<Partial<ToolAgentStateType>> {
    const last = state.messages[state.messages.length - 1];
    if (last?.role !== 'assistant') return {};
    const results: LlmMessage[] = [];
    for (const call of last.toolCalls) {
      const outcome = await runToolCall(call, tools, options.tracing);
      const seq = !outcome.isError && tools.get(call.name)?.writes ? await writeSeq(options) : null;
      emit(config, {
        kind: 'tool_result',
        tool: call.name,
        ...outcome,
        ...(seq === null ? {} : { seq }),
      });
      results.push({ role: 'tool', toolCallId: call.id, name: call.name, ...outcome });
    }
    return { messages: results };
  }

  return new StateGraph(ToolAgentState)
    .addNode('model', model)
    .addNode('tools', runTools)
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => afterModel(state, options.maxTurns), ['tools', END])
    .addEdge('tools', 'model')
    .compile();
}

/**
 * Runs the agent from `messages` and yields its events as they happen. The final state (the
 * whole conversation) is returned when the iteration ends; a failure of a model call or a store
 * write ends the iteration with that error.
 */
export async function* runToolAgent(
  options: ToolAgentOptions,
  messages: LlmMessage[],
  signal?: AbortSignal,
): AsyncGenerator<ToolAgentEvent, void, undefined> {
  const graph = buildToolAgentGraph(options);
  const stream = await graph.stream(
    { messages },
    {
      streamMode: 'custom',
      // Each turn is two supersteps (model, tools); the turn limit ends the run first.
      recursionLimit: options.maxTurns * 2 + 4,
      ...(signal ? { signal } : {}),
    },
  );
  for await (const event of stream) yield event as ToolAgentEvent;
}
