// Tracing with no LangFuse keys: the same interface, doing nothing but running the callbacks,
// so call sites never branch on whether tracing is configured.
import type { SpanHandle, TraceHandle, Tracing } from './port';

const noopHandle: TraceHandle & SpanHandle = {
  traceId: null,
  id: null,
  update: () => {},
  setOutput: () => {},
};

export function createNoopTracing(): Tracing {
  return {
    enabled: false,
    startTrace: async (_name, _attributes, fn) => fn(noopHandle),
    span: async (_name, _attributes, fn) => fn(noopHandle),
    generation: () => {},
    score: () => {},
    currentTraceId: () => null,
    traceIdOf: () => null,
    flush: async () => {},
    shutdown: async () => {},
  };
}
