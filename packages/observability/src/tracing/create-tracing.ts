// Picks the tracing implementation: LangFuse when both keys are set, otherwise the no-op with
// the same interface (docs/specs.md, "LangFuse and Sentry": "LangFuse enabled when keys are set").
import type { LogWriter } from '../log';
import { createLangfuseTracing, type LangfuseTracingOptions } from './langfuse-tracing';
import { createNoopTracing } from './noop-tracing';
import type { Tracing } from './port';

export interface CreateTracingOptions extends Omit<
  LangfuseTracingOptions,
  'publicKey' | 'secretKey' | 'log'
> {
  publicKey?: string | null;
  secretKey?: string | null;
  log: LogWriter;
}

export function createTracing(options: CreateTracingOptions): Tracing {
  const { publicKey, secretKey, ...rest } = options;
  if (!publicKey || !secretKey) {
    if (publicKey || secretKey) {
      options.log.warn(
        'LangFuse tracing disabled: set both LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY',
      );
    }
    return createNoopTracing();
  }
  return createLangfuseTracing({ ...rest, publicKey, secretKey });
}
