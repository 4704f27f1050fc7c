// The LLM port. Every LLM call in Tandem goes through LlmClient.generate (structured output) or
// LlmClient.converse (tool calling): generate validates the structured output with zod, measures latency, and reports usage through one hook, so no node
// can call a model without being accounted for. Nodes receive a client; none constructs one.
import type { LlmActionType, LlmNode, LlmProvider } from '@tandem/contracts';
import type { CallPart, UsageEvent } from '@tandem/observability';
import type { z } from 'zod';

/**
 * The graph node making the call: selects the model and labels usage and traces. Contracts'
 * vocabulary, re-exported so the port's users need one import.
 */
export type { LlmNode };

export interface LlmImage {
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
  /** base64, no data: prefix */
  data: string;
}

/** Who the call is for: carried into the usage log (tenant billing) and traces. */
export interface LlmCallContext {
  tenantId: string;
  userId?: string | null;
  sessionId?: string | null;
  taskId?: string | null;
  messageId?: string | null;
  traceId?: string | null;
}

export interface LlmRequest<S extends z.ZodType> {
  node: LlmNode;
  /**
   * Other nodes this one call answers for (one call where one answer suffices), each with its
   * action type and the output field holding its answer: the call is priced under each.
   */
  alsoFor?: readonly CallPart[];
  actionType: LlmActionType;
  system: string;
  prompt: string;
  schema: S;
  /** A short name for the schema in provider requests ("verification_verdict"). */
  schemaName?: string;
  /** Only for a client whose `acceptsImages(node)` is true (a text model's endpoint rejects them). */
  images?: LlmImage[];
  context: LlmCallContext;
  /** Aborts the call (request cancelled or server shutting down). */
  signal?: AbortSignal;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  thinkingTokens: number;
  totalTokens: number;
}

export interface LlmResult<T> {
  output: T;
  usage: LlmUsage;
  model: string;
  provider: LlmProvider;
  latencyMs: number;
  /** Unique per call; the usage log is idempotent on it. */
  generationId: string;
}

/**
 * A tool the model may call (`LlmClient.converse`). Its arguments are described by a zod object
 * schema, sent to the provider as JSON Schema; checking a call's arguments against it is the
 * caller's job, so a wrong call can go back to the model as a tool error it can fix.
 */
export interface LlmTool {
  /** Matches `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$` (the providers' common rule). */
  name: string;
  description: string;
  schema: z.ZodType;
}

export interface LlmToolCall {
  /** The provider's call id (generated when the provider gave none). */
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the provider's arguments were not a JSON object (`args` is then `{}`). */
  argsError?: string;
}

/** One turn of a tool-calling conversation. */
export type LlmMessage =
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      /** What the model said to the user ('' when it only called tools). */
      text: string;
      toolCalls: LlmToolCall[];
      /**
       * The provider's own record of the turn, sent back verbatim on the next request when the
       * same provider answers (Gemini's thought signatures must be returned with its function
       * calls). Opaque to callers.
       */
      providerState?: unknown;
    }
  | {
      role: 'tool';
      toolCallId: string;
      /** The tool's name (Gemini matches a function response by it). */
      name: string;
      content: string;
      /** The call failed: the model should read `content` and fix its call. */
      isError: boolean;
    };

export interface LlmConverseRequest {
  node: LlmNode;
  actionType: LlmActionType;
  system: string;
  messages: LlmMessage[];
  tools: LlmTool[];
  context: LlmCallContext;
  signal?: AbortSignal;
}

/** The model's next turn: words for the user, tool calls, or both. */
export interface LlmConverseResult {
  text: string;
  toolCalls: LlmToolCall[];
  providerState?: unknown;
  usage: LlmUsage;
  model: string;
  provider: LlmProvider;
  latencyMs: number;
  generationId: string;
}

/**
 * Receives one event per call, successful or not. The event is observability's UsageEvent, so
 * the usage service's recordUsage is a hook as it stands.
 */
export type UsageHook = (event: UsageEvent) => void | Promise<void>;

export interface LlmClient {
  /** False when no provider is configured: SIMPLE commands still work, COMPLEX ones can't. */
  readonly configured: boolean;
  readonly provider: LlmProvider | null;
  /**
   * Whether the model answering `node` reads images (`LlmRequest.images`). Hybrid mode sends
   * the page's screenshot only when it does; otherwise the agent reads the page's DOM.
   */
  acceptsImages(node: LlmNode): boolean;
  generate<S extends z.ZodType>(request: LlmRequest<S>): Promise<LlmResult<z.output<S>>>;
  /**
   * One model turn of a tool-calling conversation (Gemini function calling, OpenAI-compatible
   * `tools`), with the same retries, timeout and single usage event as `generate`.
   */
  converse(request: LlmConverseRequest): Promise<LlmConverseResult>;
}

/** Thrown by every LLM call when no provider is configured. */
export class LlmNotConfiguredError extends Error {
  override readonly name = 'LlmNotConfiguredError';
  constructor() {
    super(
      'No language model is configured. Set GEMINI_API_KEY (Google Gemini) or LLM_BASE_URL ' +
        '(+ LLM_MODEL, LLM_API_KEY if needed) for an OpenAI-compatible endpoint such as Ollama, ' +
        'vLLM or llama.cpp, then restart the server.',
    );
  }
}

/** The provider failed after retries, or its output never matched the schema. */
export class LlmCallError extends Error {
  override readonly name = 'LlmCallError';
  constructor(
    message: string,
    readonly details: { node: LlmNode; provider: LlmProvider; model: string; retryable: boolean },
  ) {
    super(message);
  }
}
