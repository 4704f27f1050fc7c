// The real @sentry/nextjs server SDK posting to a local DSN, next to real LangFuse tracing
// posting to a local LangFuse: errors land in Sentry with the tenant and the LangFuse trace id,
// LLM spans land in LangFuse only, expected 4xx land nowhere.
import { InteractError } from '@tandem/agent';
import { createTracing, interactTraceName, type Tracing } from '@tandem/observability';
import {
  startLangfuseCaptureServer,
  startSentryCaptureServer,
  type LangfuseCaptureServer,
  type SentryCaptureServer,
} from '@tandem/observability/testing';
import { DuplicateKeyError, VersionConflictError } from '@tandem/store';
import * as Sentry from '@sentry/nextjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  flushErrorReports,
  initSentry,
  reportError,
  sentryOptions,
  shouldReportError,
} from './error-reporting';
import { HttpError } from './http-error';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface SentryEvent {
  exception?: { values?: { type?: string; value?: string }[] };
  tags?: Record<string, string>;
  user?: { id?: string };
  contexts?: Record<string, Record<string, unknown>>;
  environment?: string;
  release?: string;
  spans?: unknown[];
}

const expectedErrors: [string, unknown][] = [
  [
    '400 validation',
    new HttpError('VALIDATION_ERROR', 'Invalid request body', {
      fields: [{ path: 'url', message: 'Required' }],
    }),
  ],
  ['401', new HttpError('UNAUTHORIZED', 'Missing API key.')],
  ['403', new HttpError('FORBIDDEN', 'Admin only.')],
  ['404', new HttpError('NOT_FOUND', 'No such task.')],
  ['409 version conflict', new VersionConflictError('task t1')],
  ['409 duplicate', new DuplicateKeyError('api key')],
  ['429', new HttpError('RATE_LIMITED', 'Slow down.')],
  ['503 LLM not configured', new InteractError('LLM_NOT_CONFIGURED', 'No model.')],
  // As /api/extract answers it.
  ['503 LLM not configured (route)', new HttpError('LLM_NOT_CONFIGURED', 'No model.')],
];

describe('error reporting (Sentry) next to LangFuse tracing', () => {
  let sentry: SentryCaptureServer;
  let langfuse: LangfuseCaptureServer;
  let tracing: Tracing;

  beforeAll(async () => {
    sentry = await startSentryCaptureServer();
    langfuse = await startLangfuseCaptureServer();
    expect(
      initSentry(
        {
          SENTRY_DSN: sentry.dsn,
          SENTRY_ENVIRONMENT: 'ci',
          SENTRY_RELEASE: undefined,
          NODE_ENV: 'test',
        },
        '9.9.9',
      ),
    ).toBe(true);
    tracing = createTracing({
      publicKey: 'pk',
      secretKey: 'sk',
      baseUrl: langfuse.baseUrl,
      log: silent,
    });
  });
  beforeEach(() => {
    sentry.reset();
    langfuse.reset();
  });
  afterAll(async () => {
    await tracing.shutdown();
    await Sentry.close(2000);
    await sentry.close();
    await langfuse.close();
  });

  it('is off without a DSN and never enables Sentry tracing or its OpenTelemetry setup', () => {
    expect(
      sentryOptions(
        {
          SENTRY_DSN: undefined,
          SENTRY_ENVIRONMENT: undefined,
          SENTRY_RELEASE: undefined,
          NODE_ENV: 'production',
        },
        '1',
      ),
    ).toBeNull();
    const options = sentryOptions(
      {
        SENTRY_DSN: sentry.dsn,
        SENTRY_ENVIRONMENT: undefined,
        SENTRY_RELEASE: undefined,
        NODE_ENV: 'production',
      },
      '1.0.0',
    );
    expect(options).toMatchObject({
      skipOpenTelemetrySetup: true,
      environment: 'production',
      release: '1.0.0',
    });
    expect(options).not.toHaveProperty('tracesSampleRate');
    expect(options).not.toHaveProperty('tracesSampler');
  });

  it('reports a route failure with tenant, user, route and the LangFuse trace id; no LLM spans reach Sentry', async () => {
    let traceId: string | null = null;
    let eventId: string | undefined;
    try {
      await tracing.startTrace(
        interactTraceName('task-7'),
        { tenantId: 'tenant-a', userId: 'user-1', taskId: 'task-7' },
        async (trace) => {
          traceId = trace.traceId;
          await tracing.span('planning', {}, () => {
            tracing.generation({
              name: 'generatePlan',
              model: 'gemini-2.5-flash',
              usage: { input: 10, cachedInput: 0, output: 5, thinking: 0, total: 15 },
              cost: { input: 0, cachedInput: 0, output: 0, thinking: 0, total: 0.0000155 },
              startTime: new Date(),
              endTime: new Date(),
            });
          });
          throw new Error('store write failed: disk full');
        },
      );
    } catch (error) {
      // What createRoute does with an unexpected failure; the trace has ended by now.
      eventId = reportError(error, {
        route: 'POST /api/agent/interact',
        tenantId: 'tenant-a',
        userId: 'user-1',
        traceId: tracing.currentTraceId() ?? tracing.traceIdOf(error),
        requestId: 'req-1',
      });
    }
    expect(eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(await flushErrorReports()).toBe(true);
    await sentry.waitFor((s) => s.items('event').length === 1);

    const event = sentry.items('event')[0]?.payload as SentryEvent;
    expect(event.exception?.values?.[0]).toMatchObject({
      type: 'Error',
      value: 'store write failed: disk full',
    });
    expect(event.tags).toMatchObject({
      route: 'POST /api/agent/interact',
      tenant_id: 'tenant-a',
      langfuse_trace_id: traceId,
      request_id: 'req-1',
    });
    expect(event.user).toMatchObject({ id: 'user-1' });
    expect(event.contexts?.tenant).toEqual({ id: 'tenant-a' });
    expect(event.environment).toBe('ci');
    expect(event.release).toBe('9.9.9');
    expect(event.spans ?? []).toEqual([]);
    // Sentry received an error event and nothing else of the request: no transaction, no span.
    const types = new Set(sentry.envelopes.flatMap((e) => e.items.map((i) => i.type)));
    expect(types.has('transaction')).toBe(false);
    expect(types.has('span')).toBe(false);

    // The LLM data went to LangFuse, under the same trace id the Sentry event points to.
    await tracing.flush();
    await langfuse.waitFor((l) => l.spans.length >= 3);
    expect(new Set(langfuse.spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
    expect(langfuse.spans.map((s) => s.name).sort()).toEqual([
      'generatePlan',
      'interact-request-task-7',
      'planning',
    ]);
  });

  it.each(expectedErrors)('does not report an expected %s', async (_label, error) => {
    expect(shouldReportError(error)).toBe(false);
    expect(reportError(error, { route: 'POST /api/agent/interact', tenantId: 'tenant-a' })).toBe(
      undefined,
    );
    // Even captured directly (Next's onRequestError path), beforeSend drops it.
    Sentry.captureException(error);
    await flushErrorReports();
    expect(sentry.items('event')).toEqual([]);
  });

  it('reports 5xx-class failures: LLM errors and unknown exceptions', async () => {
    expect(shouldReportError(new HttpError('INTERNAL_ERROR', 'boom'))).toBe(true);
    expect(shouldReportError(new InteractError('INTERNAL_ERROR', 'graph failed'))).toBe(true);
    expect(shouldReportError(new TypeError('x is undefined'))).toBe(true);
    reportError(new TypeError('x is undefined'), { route: 'GET /api/tasks' });
    await flushErrorReports();
    await sentry.waitFor((s) => s.items('event').length === 1);
    const event = sentry.items('event')[0]?.payload as SentryEvent;
    expect(event.tags?.route).toBe('GET /api/tasks');
    expect(event.tags).not.toHaveProperty('langfuse_trace_id');
  });
});
