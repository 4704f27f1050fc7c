// @tandem/observability: LangFuse tracing behind our own port, the pricing table, and the
// usage service that dual-writes the TokenUsageLog and LangFuse generations. Sentry stays in
// the server app (exceptions only); see docs/observability.md for the split.
export {
  createRateLimitedLog,
  describeError,
  silentLogger,
  type Logger,
  type LogWriter,
  type RateLimitedLog,
} from './log';
export {
  DEFAULT_MODEL_PRICE,
  PRICING_TABLE,
  microUsdToUsd,
  priceUsage,
  priceUsageDetailed,
  resolveModelPrice,
  type MicroUsdPerMillion,
  type ModelPrice,
  type PricedUsage,
  type ResolvedPrice,
  type TokenRates,
  type UsageCost,
} from './pricing/pricing';
export { createTracing, type CreateTracingOptions } from './tracing/create-tracing';
export { createLangfuseTracing, type LangfuseTracingOptions } from './tracing/langfuse-tracing';
export { createNoopTracing } from './tracing/noop-tracing';
export { generationName, type NodeSpanData, type NodeSpanName } from './tracing/node-spans';
export {
  interactTraceName,
  type GenerationCost,
  type GenerationRecord,
  type GenerationUsage,
  type KnownScoreName,
  type ObservationLevel,
  type ScoreRecord,
  type SpanAttributes,
  type SpanHandle,
  type SpanUpdate,
  type TraceAttributes,
  type TraceHandle,
  type Tracing,
} from './tracing/port';
export type { CallPart, UsageEvent, UsageEventContext, UsageEventUsage } from './usage/usage-event';
export { partFractions, splitUsage } from './usage/usage-shares';
export {
  createUsageService,
  type UsageOutcome,
  type UsageService,
  type UsageServiceOptions,
} from './usage/usage-service';
