// A scripted LLM for tests. It is a real ModelProvider ('SCRIPTED') behind the real
// createLlmClient, so scripted outputs go through the same JSON parsing, schema validation,
// repair, retries and usage hook as Gemini's: a test can't pass on output production would reject.
import type { z } from 'zod';
import { createLlmClient, type CreateLlmClientOptions } from './create-llm-client';
import type { UsageEvent } from '@tandem/observability';
import type {
  LlmClient,
  LlmConverseRequest,
  LlmConverseResult,
  LlmNode,
  LlmRequest,
  LlmResult,
  LlmUsage,
} from './port';
import type {
  ModelProvider,
  ProviderConverseRequest,
  ProviderConverseResponse,
  ProviderRequest,
  ProviderResponse,
} from './provider';
import { transcript } from './converse';

type AnyRequest = LlmRequest<z.ZodType>;

/** What one provider attempt answers. */
export type ScriptedAnswer =
  /** A value (serialised to JSON), or a function of the caller's request returning one. */
  | ({ output: ScriptedOutputFn | ScriptedValue } & Answered)
  /** Raw model text, e.g. invalid JSON to exercise the repair path. */
  | ({ text: string } & Answered)
  /** A failure: throw a ProviderError to exercise retries (429, 500, timeouts…). */
  | { error: Error }
  /**
   * A tool-calling turn (`converse`): words and/or tool calls, or a function of the request
   * (the conversation so far) returning them. Arguments go to the caller unchecked, as a
   * provider's would.
   */
  | ({ reply: ScriptedReply | ScriptedReplyFn } & Answered);

/** What a scripted call answers. Order within one node is FIFO. */
export type ScriptedStep = ScriptedAnswer & { node: LlmNode };

interface Answered {
  /** Overrides the synthetic token counts. */
  usage?: Partial<LlmUsage>;
  /** The model that answered (e.g. a more specific version); default: the one asked for. */
  model?: string;
}

export interface ScriptedReply {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
}
export type ScriptedReplyFn = (
  request: LlmConverseRequest,
) => ScriptedReply | Promise<ScriptedReply>;

export type ScriptedOutputFn = (request: AnyRequest) => unknown;
/** Any JSON-serialisable value (functions are ScriptedOutputFn). */
export type ScriptedValue = string | number | boolean | null | object;

export interface ScriptedLlmOptions extends Pick<
  CreateLlmClientOptions,
  'usageHook' | 'maxRetries' | 'timeoutMs' | 'retryBaseDelayMs'
> {
  /** Simulated latency of each provider attempt. Default 1 ms. */
  latencyMs?: number;
  /** No simulated latency at all: no timer, the answer is ready on the next microtask. */
  zeroLatency?: boolean;
  /** Whether the scripted model reads images (hybrid mode). Default true. */
  acceptsImages?: boolean;
  /** The model the provider picks for a node. Default 'scripted'. */
  modelFor?: (node: LlmNode) => string;
  /** Answers a structured-output attempt when no step is scripted for its node. */
  fallback?: (request: ProviderRequest) => ScriptedAnswer;
}

/** Thrown for calls the script doesn't expect. Not an LlmCallError on purpose: fail-open
 * nodes catch LlmCallError, and a script mistake must never be swallowed as "the LLM failed". */
export class ScriptedLlmError extends Error {
  override readonly name = 'ScriptedLlmError';
}

export class ScriptedLlm implements LlmClient {
  readonly configured = true;
  readonly provider = 'SCRIPTED' as const;
  /** Every generate request, in call order (repairs and retries are not separate calls). */
  readonly calls: AnyRequest[] = [];
  /** Every provider attempt, repairs and retries included. */
  readonly attempts: ProviderRequest[] = [];
  /** Usage events as the hook received them (recorded before the caller's own hook runs). */
  readonly usageEvents: UsageEvent[] = [];
  /** Every converse request, in call order. */
  readonly conversations: LlmConverseRequest[] = [];
  /** Messages of unexpected calls, kept so assertDone() fails even if a node swallowed one. */
  readonly unexpectedCalls: string[] = [];
  /** The provider itself, for tests of the client's policies (retries, repair, timeouts). */
  readonly modelProvider: ModelProvider;
  private readonly steps: ScriptedStep[];
  private readonly client: LlmClient;
  private readonly images: boolean;
  private readonly fallback: ScriptedLlmOptions['fallback'];

  constructor(steps: ScriptedStep[] = [], options: ScriptedLlmOptions = {}) {
    this.steps = [...steps];
    this.images = options.acceptsImages ?? true;
    this.fallback = options.fallback;
    const userHook = options.usageHook;
    this.modelProvider = this.createProvider(options);
    this.client = createLlmClient(this.modelProvider, {
      maxRetries: options.maxRetries ?? 3,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 1,
      timeoutMs: options.timeoutMs ?? 30_000,
      usageHook: (event) => {
        this.usageEvents.push(event);
        return userHook?.(event);
      },
    });
  }

  /** Appends steps (e.g. after inspecting what the first part of a run asked). */
  push(...steps: ScriptedStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  acceptsImages(): boolean {
    return this.images;
  }

  get remaining(): readonly ScriptedStep[] {
    return this.steps;
  }

  generate<S extends z.ZodType>(request: LlmRequest<S>): Promise<LlmResult<z.output<S>>> {
    this.calls.push(request as AnyRequest);
    return this.client.generate(request);
  }

  converse(request: LlmConverseRequest): Promise<LlmConverseResult> {
    this.conversations.push(request);
    return this.client.converse(request);
  }

  /** The requests made for one node, in order. */
  callsFor(node: LlmNode): AnyRequest[] {
    return this.calls.filter((call) => call.node === node);
  }

  /** Throws if scripted steps were never used or a call was unexpected. */
  assertDone(): void {
    const problems: string[] = [...this.unexpectedCalls];
    if (this.steps.length > 0) {
      problems.push(
        `scripted LLM: ${this.steps.length} scripted step(s) never called: ${describe(this.steps)}`,
      );
    }
    if (problems.length > 0) throw new ScriptedLlmError(problems.join('\n'));
  }

  private createProvider(options: ScriptedLlmOptions): ModelProvider {
    const latencyMs = options.zeroLatency === true ? 0 : (options.latencyMs ?? 1);
    /** The call's step, once the simulated latency passed; a scripted error is thrown. */
    const answer = async (request: ProviderRequest | ProviderConverseRequest) => {
      const step = this.take(request);
      if (latencyMs > 0) await delay(latencyMs, request.signal);
      else await Promise.resolve();
      if ('error' in step) throw step.error;
      return step;
    };
    return {
      name: 'SCRIPTED',
      modelFor: options.modelFor ?? (() => 'scripted'),
      complete: async (request: ProviderRequest): Promise<ProviderResponse> => {
        this.attempts.push(request);
        const step = await answer(request);
        if ('reply' in step) {
          return this.unexpected(
            `a tool-calling reply is scripted for node ${request.node}, but it was called for structured output`,
          );
        }
        let text: string;
        if ('text' in step) {
          text = step.text;
        } else {
          const value =
            typeof step.output === 'function'
              ? await (step.output as ScriptedOutputFn)(request.origin)
              : step.output;
          text = JSON.stringify(value) ?? '';
        }
        const usage = syntheticUsage(request, text, step.usage);
        return { text, usage, model: step.model ?? request.model };
      },
      converse: async (request: ProviderConverseRequest): Promise<ProviderConverseResponse> => {
        const step = await answer(request);
        if (!('reply' in step)) {
          return this.unexpected(
            `structured output is scripted for node ${request.node}, but it was called for a tool-calling turn`,
          );
        }
        const reply =
          typeof step.reply === 'function' ? await step.reply(request.origin) : step.reply;
        const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
          id: call.id ?? `scripted-${this.conversations.length}-${index}`,
          name: call.name,
          args: call.args,
        }));
        const text = reply.text ?? '';
        const prompt = transcript(request.messages);
        const usage = syntheticUsage(
          { system: request.system, prompt },
          text + JSON.stringify(toolCalls),
          step.usage,
        );
        return { text, toolCalls, usage, model: step.model ?? request.model };
      },
    };
  }

  private unexpected(message: string): never {
    const full = `scripted LLM: ${message}`;
    this.unexpectedCalls.push(full);
    throw new ScriptedLlmError(full);
  }

  private take(request: ProviderRequest | ProviderConverseRequest): ScriptedAnswer {
    const index = this.steps.findIndex((step) => step.node === request.node);
    const structured = 'prompt' in request;
    if (index < 0 && structured && this.fallback !== undefined) return this.fallback(request);
    if (index < 0) {
      const remaining = describe(this.steps);
      const message =
        structured && request.repairReason !== null
          ? `the output scripted for node ${request.node} failed validation and no ` +
            `repair step is scripted for it (${request.repairReason.replace(/\s+/g, ' ')}); ` +
            `remaining script: ${remaining}`
          : `unexpected call to node ${request.node}; remaining script: ${remaining}`;
      return this.unexpected(message);
    }
    const [step] = this.steps.splice(index, 1);
    if (step === undefined) throw new ScriptedLlmError('scripted LLM: script changed underneath');
    return step;
  }
}

export function createScriptedLlm(
  steps: ScriptedStep[] = [],
  options: ScriptedLlmOptions = {},
): ScriptedLlm {
  return new ScriptedLlm(steps, options);
}

function describe(steps: readonly ScriptedStep[]): string {
  return steps.length === 0 ? '(empty)' : `[${steps.map((step) => step.node).join(', ')}]`;
}

/** About four characters per token: close enough for budgets and usage plumbing in tests. */
function syntheticUsage(
  request: Pick<ProviderRequest, 'system' | 'prompt'>,
  text: string,
  override: Partial<LlmUsage> | undefined,
): LlmUsage {
  const inputTokens = Math.ceil((request.system.length + request.prompt.length) / 4);
  const outputTokens = Math.ceil(text.length / 4);
  const base: LlmUsage = {
    inputTokens,
    outputTokens,
    cachedInputTokens: 0,
    thinkingTokens: 0,
    totalTokens: inputTokens + outputTokens,
  };
  return { ...base, ...override };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    // The client races the abort itself; only free the timer here.
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}
