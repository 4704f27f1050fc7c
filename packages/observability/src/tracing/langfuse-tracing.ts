// The LangFuse implementation of the tracing port, on the current OpenTelemetry-based SDK:
// @langfuse/tracing builds observations, @langfuse/otel's LangfuseSpanProcessor batches and
// exports them as OTLP JSON, @langfuse/client's API sends scores.
//
// Nothing here touches OpenTelemetry's globals. Sentry (and Next.js) may register a global
// tracer provider, context manager or propagator; registering ours would either fail or take
// theirs over, and would make Next's request spans the parents of our traces. Instead:
//  - our provider is handed to the LangFuse SDK alone with setLangfuseTracerProvider, the
//    SDK's own slot for an isolated provider;
//  - the active trace/span is kept in our own AsyncLocalStorage, and children are started with
//    an explicit parent span context, so nesting works with or without a global context
//    manager;
//  - trace-level attributes (name, user, session, tags, metadata) are written onto every
//    observation, which is what the SDK's propagateAttributes does through the context.
// The SDK's provider slot is per process, so one enabled Tracing per process is supported (the
// server builds one; tests create them one at a time).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { LangfuseClient } from '@langfuse/client';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import {
  getLangfuseTracerProvider,
  LangfuseOtelSpanAttributes,
  setLangfuseTracerProvider,
  startObservation,
  type LangfuseGeneration,
  type LangfuseSpan,
} from '@langfuse/tracing';
import { context, ROOT_CONTEXT, type Attributes, type SpanContext } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { createRateLimitedLog, describeError, type LogWriter, type RateLimitedLog } from '../log';
import type {
  GenerationRecord,
  ScoreRecord,
  SpanAttributes,
  SpanHandle,
  SpanUpdate,
  TraceAttributes,
  TraceHandle,
  Tracing,
} from './port';
import { ReportingSpanExporter } from './reporting-exporter';
import { ScoreQueue } from './score-queue';

export interface LangfuseTracingOptions {
  publicKey: string;
  secretKey: string;
  /** https://cloud.langfuse.com (EU, default), https://us.cloud.langfuse.com, or self-hosted. */
  baseUrl?: string;
  environment?: string;
  release?: string;
  log: LogWriter;
  /** Per-request timeout for span exports and score batches. Short: LangFuse is optional. */
  timeoutMs?: number;
  /** Spans per export request. */
  flushAt?: number;
  /** Longest a finished span waits in memory before it is exported. */
  flushIntervalMs?: number;
  /** Upper bound on flush()/shutdown(), whatever LangFuse does. */
  flushTimeoutMs?: number;
  /** How often one kind of failure is logged. */
  errorLogIntervalMs?: number;
}

const DEFAULTS = {
  baseUrl: 'https://cloud.langfuse.com',
  timeoutMs: 3_000,
  flushAt: 100,
  flushIntervalMs: 2_000,
  flushTimeoutMs: 5_000,
};

type Observation = LangfuseSpan | LangfuseGeneration;

interface ActiveScope {
  observation: LangfuseSpan;
  traceId: string;
  /** Trace-level attributes every observation of this trace carries. */
  traceAttributes: Attributes;
}

const MAX_STATUS_MESSAGE = 300;

function statusMessageOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_STATUS_MESSAGE ? `${text.slice(0, MAX_STATUS_MESSAGE)}…` : text;
}

function traceAttributesOf(name: string, attrs: TraceAttributes): Attributes {
  const out: Attributes = { [LangfuseOtelSpanAttributes.TRACE_NAME]: name };
  if (attrs.userId) out[LangfuseOtelSpanAttributes.TRACE_USER_ID] = attrs.userId;
  if (attrs.sessionId) out[LangfuseOtelSpanAttributes.TRACE_SESSION_ID] = attrs.sessionId;
  if (attrs.tags && attrs.tags.length > 0) out[LangfuseOtelSpanAttributes.TRACE_TAGS] = attrs.tags;
  const metadata: Record<string, string> = {
    tenantId: attrs.tenantId,
    ...(attrs.taskId ? { taskId: attrs.taskId } : {}),
    ...attrs.metadata,
  };
  for (const [key, value] of Object.entries(metadata)) {
    out[`${LangfuseOtelSpanAttributes.TRACE_METADATA}.${key}`] = value;
  }
  return out;
}

const TRACE_ID = /^[0-9a-f]{32}$/;

/** A random 64-bit span id for parenting a late generation to a trace whose root has ended. */
const randomSpanId = (): string => randomBytes(8).toString('hex');

export function createLangfuseTracing(options: LangfuseTracingOptions): Tracing {
  const baseUrl = (options.baseUrl ?? DEFAULTS.baseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const flushTimeoutMs = options.flushTimeoutMs ?? DEFAULTS.flushTimeoutMs;
  const report: RateLimitedLog = createRateLimitedLog(options.log, {
    intervalMs: options.errorLogIntervalMs,
  });
  const endpoint = `${baseUrl}/api/public/otel/v1/traces`;
  const auth = Buffer.from(`${options.publicKey}:${options.secretKey}`).toString('base64');

  const exporter = new ReportingSpanExporter(
    new OTLPTraceExporter({
      url: endpoint,
      headers: {
        Authorization: `Basic ${auth}`,
        'x-langfuse-sdk-name': 'javascript',
        'x-langfuse-public-key': options.publicKey,
      },
      timeoutMillis: timeoutMs,
    }),
    report,
    options.log,
    endpoint,
  );
  const processor = new LangfuseSpanProcessor({
    exporter,
    publicKey: options.publicKey,
    secretKey: options.secretKey,
    baseUrl,
    environment: options.environment,
    release: options.release,
    flushAt: options.flushAt ?? DEFAULTS.flushAt,
    flushInterval: (options.flushIntervalMs ?? DEFAULTS.flushIntervalMs) / 1000,
    // We never put media in traces (page screenshots stay out of LangFuse); skipping the scan
    // also saves a regex pass over every prompt.
    mediaUploadEnabled: false,
  });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  if (getLangfuseTracerProvider() !== provider) setLangfuseTracerProvider(provider);

  const client = new LangfuseClient({
    publicKey: options.publicKey,
    secretKey: options.secretKey,
    baseUrl,
    timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
  });
  const scores = new ScoreQueue({
    client,
    report,
    flushAt: 20,
    flushIntervalMs: options.flushIntervalMs ?? DEFAULTS.flushIntervalMs,
    timeoutSeconds: Math.max(1, Math.ceil(timeoutMs / 1000)),
  });

  const als = new AsyncLocalStorage<ActiveScope>();
  /** Roots of traces still running, so a generation reported off-context finds its trace. */
  const openTraces = new Map<string, ActiveScope>();
  /** Errors that ended a trace -> its id (weak: the error's lifetime, no leak). */
  const failedTraces = new WeakMap<object, string>();
  let closed = false;

  /** Tracing must never break the code it observes: every SDK call goes through here. */
  const guard = <T>(what: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      report.report(`langfuse-sdk-${what}`, 'warn', 'LangFuse tracing call failed', {
        call: what,
        error: describeError(error),
      });
      return undefined;
    }
  };

  const parentOf = (observation: Observation): SpanContext => observation.otelSpan.spanContext();

  const handleFor = (observation: Observation | undefined): SpanHandle => ({
    traceId: observation?.traceId ?? null,
    id: observation?.id ?? null,
    update: (update: SpanUpdate) => {
      if (!observation) return;
      guard('update', () => observation.update(update));
    },
  });

  async function runIn<T, H extends SpanHandle>(
    observation: LangfuseSpan | undefined,
    scope: ActiveScope | undefined,
    handle: H,
    fn: (handle: H) => Promise<T> | T,
    onEnd?: () => void,
  ): Promise<T> {
    const run = async () => fn(handle);
    try {
      return scope ? await als.run(scope, run) : await run();
    } catch (error) {
      if (observation) {
        guard('error', () =>
          observation.update({ level: 'ERROR', statusMessage: statusMessageOf(error) }),
        );
      }
      throw error;
    } finally {
      onEnd?.();
      if (observation) guard('end', () => observation.end());
    }
  }

  const tracing: Tracing = {
    enabled: true,

    async startTrace(name, attributes, fn) {
      const traceAttributes = traceAttributesOf(name, attributes);
      // ROOT_CONTEXT: a fresh trace even if a global context manager holds another span
      // (Next.js' request span, an outer trace); one interact request is one LangFuse trace.
      const root = closed
        ? undefined
        : guard('start-trace', () =>
            context.with(ROOT_CONTEXT, () => startObservation(name, { input: attributes.input })),
          );
      if (!root) {
        const noop: TraceHandle = { ...handleFor(undefined), setOutput: () => {} };
        return fn(noop);
      }
      guard('trace-attributes', () => {
        root.otelSpan.setAttributes(traceAttributes);
        // Trace-level input/output still drive LangFuse's trace list and evaluators.
        root.setTraceIO({ input: attributes.input });
      });
      const scope: ActiveScope = { observation: root, traceId: root.traceId, traceAttributes };
      openTraces.set(root.traceId, scope);
      const handle: TraceHandle = {
        ...handleFor(root),
        setOutput: (output) =>
          guard('trace-output', () => {
            root.update({ output });
            root.setTraceIO({ output });
          }),
      };
      try {
        return await runIn(root, scope, handle, fn, () => openTraces.delete(root.traceId));
      } catch (error) {
        if (typeof error === 'object' && error !== null) failedTraces.set(error, root.traceId);
        throw error;
      }
    },

    async span(name, attributes: SpanAttributes, fn) {
      const parent = als.getStore();
      const span = closed
        ? undefined
        : guard('start-span', () =>
            parent
              ? startObservation(name, attributes, {
                  parentSpanContext: parentOf(parent.observation),
                })
              : context.with(ROOT_CONTEXT, () => startObservation(name, attributes)),
          );
      if (!span) return fn(handleFor(undefined));
      if (parent)
        guard('trace-attributes', () => span.otelSpan.setAttributes(parent.traceAttributes));
      const scope: ActiveScope | undefined = parent
        ? { ...parent, observation: span }
        : { observation: span, traceId: span.traceId, traceAttributes: {} };
      return runIn(span, scope, handleFor(span), fn);
    },

    generation(record: GenerationRecord) {
      if (closed) return;
      const active = als.getStore();
      const scope = active ?? (record.traceId ? openTraces.get(record.traceId) : undefined);
      let parentSpanContext: SpanContext | undefined = scope
        ? parentOf(scope.observation)
        : undefined;
      if (!parentSpanContext && record.traceId && TRACE_ID.test(record.traceId)) {
        // Its trace already ended: keep the generation in that trace (LangFuse lists an
        // observation with an unknown parent at the trace's top level).
        parentSpanContext = { traceId: record.traceId, spanId: randomSpanId(), traceFlags: 1 };
      }
      guard('generation', () => {
        const generation = context.with(ROOT_CONTEXT, () =>
          startObservation(
            record.name,
            {
              model: record.model,
              input: record.input,
              output: record.output,
              usageDetails: {
                input: record.usage.input,
                input_cached_tokens: record.usage.cachedInput,
                output: record.usage.output,
                output_reasoning_tokens: record.usage.thinking,
                total: record.usage.total,
              },
              costDetails: {
                input: record.cost.input,
                input_cached_tokens: record.cost.cachedInput,
                output: record.cost.output,
                output_reasoning_tokens: record.cost.thinking,
                total: record.cost.total,
              },
              ...(record.modelParameters ? { modelParameters: record.modelParameters } : {}),
              ...(record.metadata ? { metadata: record.metadata } : {}),
              ...(record.level ? { level: record.level } : {}),
              ...(record.statusMessage ? { statusMessage: record.statusMessage } : {}),
            },
            { asType: 'generation', startTime: record.startTime, parentSpanContext },
          ),
        );
        if (scope) generation.otelSpan.setAttributes(scope.traceAttributes);
        generation.end(record.endTime);
      });
    },

    score(score: ScoreRecord) {
      if (closed) return;
      const traceId = score.traceId ?? als.getStore()?.traceId ?? null;
      if (!traceId) {
        options.log.debug('score without a trace dropped', { name: score.name });
        return;
      }
      guard('score', () =>
        scores.add({
          traceId,
          name: score.name,
          value: score.value,
          ...(score.observationId ? { observationId: score.observationId } : {}),
          ...(score.comment ? { comment: score.comment } : {}),
          dataType: score.dataType ?? (score.name.endsWith('_success') ? 'BOOLEAN' : 'NUMERIC'),
          ...(options.environment ? { environment: options.environment } : {}),
        }),
      );
    },

    currentTraceId() {
      return als.getStore()?.traceId ?? null;
    },

    traceIdOf(error) {
      return typeof error === 'object' && error !== null ? (failedTraces.get(error) ?? null) : null;
    },

    async flush() {
      await withTimeout(
        Promise.allSettled([provider.forceFlush(), scores.flush()]),
        flushTimeoutMs,
      );
    },

    async shutdown() {
      if (closed) return;
      closed = true;
      await withTimeout(Promise.allSettled([scores.flush(), provider.shutdown()]), flushTimeoutMs);
      if (getLangfuseTracerProvider() === provider) setLangfuseTracerProvider(null);
    },
  };
  return tracing;
}

/** Resolves when `promise` settles or after `ms`, whichever is first; never rejects. */
async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
