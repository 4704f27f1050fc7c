// The tracing port. Business code (the agent's nodes, the LLM port, the route) calls only
// this interface; the LangFuse SDK sits behind it in langfuse-tracing.ts, and a no-op version
// with the same shape runs when no LangFuse keys are configured. LangFuse receives LLM data
// only (traces, spans, generations, scores): exceptions go to Sentry, never here.

export type ObservationLevel = 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR';

/** Who and what one trace is about; applied to every observation in it. */
export interface TraceAttributes {
  tenantId: string;
  userId?: string | null;
  sessionId?: string | null;
  taskId?: string | null;
  /** Filterable labels in LangFuse ("new-task", "complex", "resume"). */
  tags?: string[];
  /** Trace input (the request's goal and URL); trace output is set through the handle. */
  input?: unknown;
  /** Short string dimensions (<= 200 chars each), e.g. requestId. */
  metadata?: Record<string, string>;
}

export interface SpanAttributes {
  input?: unknown;
  metadata?: Record<string, unknown>;
}

export interface SpanUpdate {
  output?: unknown;
  metadata?: Record<string, unknown>;
  level?: ObservationLevel;
  statusMessage?: string;
}

/** A span or trace in progress. Every method is safe to call when tracing is disabled. */
export interface SpanHandle {
  /** The LangFuse trace id (32 hex), or null when tracing is disabled. */
  readonly traceId: string | null;
  /** The observation id (16 hex), or null when tracing is disabled. */
  readonly id: string | null;
  update(update: SpanUpdate): void;
}

export interface TraceHandle extends SpanHandle {
  /** Sets the trace-level output (what the request answered). */
  setOutput(output: unknown): void;
}

/** Token counts as LangFuse shows them; `input` excludes the cached subset. */
export interface GenerationUsage {
  input: number;
  output: number;
  cachedInput: number;
  thinking: number;
  total: number;
}

/** Cost per component in USD (display only: billing uses integer micro-USD in the store). */
export interface GenerationCost {
  input: number;
  cachedInput: number;
  output: number;
  thinking: number;
  total: number;
}

export interface GenerationRecord {
  /** "generatePlan", "verifyAction"… (see generationName()). */
  name: string;
  model: string;
  input?: unknown;
  output?: unknown;
  usage: GenerationUsage;
  cost: GenerationCost;
  startTime: Date;
  endTime: Date;
  modelParameters?: Record<string, string | number>;
  metadata?: Record<string, unknown>;
  /** ERROR for a failed call, with the reason in statusMessage. */
  level?: ObservationLevel;
  statusMessage?: string;
  /**
   * The trace to attach to when there is no active span in this async context (a generation
   * reported after its node finished). Ignored when a span is active.
   */
  traceId?: string | null;
}

export type KnownScoreName =
  | 'verification_success'
  | 'verification_confidence'
  | 'correction_success'
  /** 1 when a node went on without its failed model call (comment: which, and what it did). */
  | 'model_fallback';

export interface ScoreRecord {
  name: KnownScoreName | (string & {});
  /** 0/1 for the *_success scores, 0..1 for confidence. */
  value: number;
  /** Defaults to the active trace; a score with no trace is dropped (and logged at debug). */
  traceId?: string | null;
  /** Attach to one observation (a verification span) instead of the whole trace. */
  observationId?: string | null;
  comment?: string;
  dataType?: 'NUMERIC' | 'BOOLEAN';
}

export interface Tracing {
  /** False for the no-op implementation (no LangFuse keys). */
  readonly enabled: boolean;
  /**
   * Runs `fn` inside a new trace. Spans and generations started while it runs (across awaits)
   * nest under it. The trace ends when `fn` settles; a rejection marks it ERROR and rethrows.
   */
  startTrace<T>(
    name: string,
    attributes: TraceAttributes,
    fn: (trace: TraceHandle) => Promise<T> | T,
  ): Promise<T>;
  /** Runs `fn` inside a span that is a child of the active span (or a root if none). */
  span<T>(
    name: string,
    attributes: SpanAttributes,
    fn: (span: SpanHandle) => Promise<T> | T,
  ): Promise<T>;
  /** Records a finished LLM call under the active span (or `record.traceId`'s root). */
  generation(record: GenerationRecord): void;
  /** Queues a score; sent in batches, never awaited by the caller. */
  score(score: ScoreRecord): void;
  /** The trace id of the active trace in this async context, or null. */
  currentTraceId(): string | null;
  /**
   * The trace an error escaped from (the error a startTrace callback rejected with), so the
   * route that catches it after the trace has ended can still tag Sentry with the trace id.
   */
  traceIdOf(error: unknown): string | null;
  /** Sends everything queued, bounded by a timeout; never rejects. */
  flush(): Promise<void>;
  /** Flushes and releases the exporter; later calls are no-ops. Never rejects. */
  shutdown(): Promise<void>;
}

/** The trace name the spec uses for one interact request (docs/specs.md, "What's Traced"). */
export const interactTraceName = (taskId: string): string => `interact-request-${taskId}`;
