// Sentry, for exceptions only (docs/specs.md, "LangFuse and Sentry": LangFuse has the LLM traces,
// Sentry the errors, nothing in both). Sentry runs with its tracing off and without its
// OpenTelemetry setup: no transactions or spans leave this process for Sentry, and Sentry does not
// register a second global tracer provider or context manager next to LangFuse's.
//
// What is reported: what createRoute maps as unexpected (5xx, unknown errors, LLM failures).
// Expected rejections (400 validation, 401, 403, 404, 409, 413, 429, LLM_NOT_CONFIGURED) are
// the API working as designed and would only bury real incidents.
import * as Sentry from '@sentry/nextjs';
import type { Env } from '../env';
import { mapError } from './http-error';

export type SentryEnv = Pick<
  Env,
  'SENTRY_DSN' | 'SENTRY_ENVIRONMENT' | 'SENTRY_RELEASE' | 'NODE_ENV'
>;

/** Whether an error is worth an incident: the same rule that decides a 5xx in createRoute. */
export function shouldReportError(error: unknown): boolean {
  return mapError(error).unexpected;
}

type SentryOptions = NonNullable<Parameters<typeof Sentry.init>[0]>;

/** The Sentry options, or null when no DSN is configured (Sentry stays off). */
export function sentryOptions(env: SentryEnv, version: string): SentryOptions | null {
  if (!env.SENTRY_DSN) return null;
  return {
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    release: env.SENTRY_RELEASE ?? version,
    // LangFuse owns OpenTelemetry in this process (its own isolated provider); Sentry must
    // not install a global provider, context manager, propagator or instrumentations.
    skipOpenTelemetrySetup: true,
    // No tracesSampleRate / tracesSampler: performance tracing is off, so no transactions
    // (and no LLM spans) are ever sent to Sentry.
    sendDefaultPii: false,
    // Safety net for errors that reach Sentry without reportError (Next's onRequestError,
    // unhandled rejections): expected 4xx never become Sentry issues.
    beforeSend(event, hint) {
      const original = hint.originalException;
      return original !== undefined && original !== null && !shouldReportError(original)
        ? null
        : event;
    },
  };
}

/** Initialises Sentry once per process; returns whether it is on. */
export function initSentry(env: SentryEnv, version: string): boolean {
  if (Sentry.getClient() !== undefined) return true;
  const options = sentryOptions(env, version);
  if (!options) return false;
  Sentry.init(options);
  return true;
}

export interface ErrorReportContext {
  /** "POST /api/agent/interact" */
  route: string;
  tenantId?: string | null;
  userId?: string | null;
  /** The LangFuse trace of the failed request, to jump from the Sentry issue to the trace. */
  traceId?: string | null;
  requestId?: string | null;
}

/**
 * Reports an unexpected error with the tenant, user, route and LangFuse trace id attached.
 * Returns the Sentry event id, or undefined when the error is expected or Sentry is off.
 * Never throws: reporting a failure must not become another one.
 */
export function reportError(error: unknown, context: ErrorReportContext): string | undefined {
  try {
    if (Sentry.getClient() === undefined || !shouldReportError(error)) return undefined;
    // Everything goes on this one event (not on a shared scope): without Sentry's context
    // manager, scope data set elsewhere could leak between concurrent requests.
    return Sentry.captureException(error, {
      level: 'error',
      tags: {
        route: context.route,
        ...(context.tenantId ? { tenant_id: context.tenantId } : {}),
        ...(context.traceId ? { langfuse_trace_id: context.traceId } : {}),
        ...(context.requestId ? { request_id: context.requestId } : {}),
      },
      ...(context.userId ? { user: { id: context.userId } } : {}),
      contexts: {
        tenant: { id: context.tenantId ?? null },
        ...(context.traceId ? { langfuse: { trace_id: context.traceId } } : {}),
      },
    });
  } catch {
    return undefined;
  }
}

/** Sends queued Sentry events (tests, shutdown); resolves false on timeout or when off. */
export async function flushErrorReports(timeoutMs = 2_000): Promise<boolean> {
  try {
    return Sentry.getClient() === undefined ? false : await Sentry.flush(timeoutMs);
  } catch {
    return false;
  }
}
