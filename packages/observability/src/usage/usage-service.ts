// The usage service (docs/specs.md, "usage dual-write"): every LLM call is priced once, here, then
// written twice with Promise.allSettled: the append-only TokenUsageLog (billing's source of truth)
// and a LangFuse generation (engineers' view). Neither write can delay or fail the request: the
// LLM port hands us the event detached, recordUsage only starts the writes, and failures are
// logged. drain() waits for writes in flight (tests, graceful shutdown).
import type { TokenUsageRepository } from '@tandem/store';
import { createRateLimitedLog, describeError, type LogWriter, type RateLimitedLog } from '../log';
import { microUsdToUsd, priceUsageDetailed, type UsageCost } from '../pricing/pricing';
import { generationName } from '../tracing/node-spans';
import type { Tracing } from '../tracing/port';
import type { UsageEvent } from './usage-event';
import { splitUsage } from './usage-shares';

export interface UsageServiceOptions {
  /** Only `tokenUsage.append` is used; pass the Store. */
  store: { tokenUsage: Pick<TokenUsageRepository, 'append'> };
  tracing: Tracing;
  log: LogWriter;
  /** The pricing function; the central table by default. */
  price?: (model: string, usage: UsageEvent['usage']) => UsageCost;
  /** Generation ids remembered to keep a replayed event out of LangFuse twice. */
  dedupeWindow?: number;
}

export interface UsageOutcome {
  generationId: string;
  costMicroUsd: number;
  /** 'duplicate': the id was already in the TokenUsageLog, nothing changed. */
  stored: 'inserted' | 'duplicate' | 'failed';
  /** 'duplicate': already sent to LangFuse by this process; 'disabled': no LangFuse keys. */
  traced: 'recorded' | 'duplicate' | 'disabled' | 'failed';
}

export interface UsageService {
  /**
   * The agent's UsageHook. Starts both writes and resolves at once: the caller never waits for
   * the store or LangFuse, and this never rejects.
   */
  readonly recordUsage: (event: UsageEvent) => Promise<void>;
  /** Same writes, resolving with what happened once both have settled. Never rejects. */
  record(event: UsageEvent): Promise<UsageOutcome>;
  /** Waits for every write in flight, at most `timeoutMs` (default 10 s). */
  drain(timeoutMs?: number): Promise<void>;
  /** Writes in flight. */
  readonly pending: number;
}

/** Prompts can carry a whole page; LangFuse gets enough to debug, not megabytes per call. */
const MAX_TRACED_CHARS = 200_000;

const clip = (text: string): string =>
  text.length > MAX_TRACED_CHARS
    ? `${text.slice(0, MAX_TRACED_CHARS)}… [${text.length - MAX_TRACED_CHARS} chars clipped]`
    : text;

function timesOf(event: UsageEvent): { startTime: Date; endTime: Date } {
  const latency = Number.isFinite(event.latencyMs) && event.latencyMs > 0 ? event.latencyMs : 0;
  const parsed = Date.parse(event.startedAt);
  const start = Number.isNaN(parsed) ? Date.now() - latency : parsed;
  return { startTime: new Date(start), endTime: new Date(start + latency) };
}

export function createUsageService(options: UsageServiceOptions): UsageService {
  const price = options.price ?? priceUsageDetailed;
  const report: RateLimitedLog = createRateLimitedLog(options.log);
  const dedupeWindow = options.dedupeWindow ?? 10_000;
  const traced = new Set<string>();
  const inflight = new Set<Promise<unknown>>();

  const remember = (id: string): boolean => {
    if (traced.has(id)) return false;
    traced.add(id);
    if (traced.size > dedupeWindow) {
      // Sets iterate in insertion order: the first entry is the oldest id.
      const oldest = traced.values().next().value;
      if (oldest !== undefined) traced.delete(oldest);
    }
    return true;
  };

  const costOf = (event: UsageEvent): UsageCost => {
    try {
      const cost = price(event.model, event.usage);
      if (cost.pricedAs === null) {
        report.report(
          `unknown-model:${event.model}`,
          'warn',
          'no price for model; billed at default rates',
          {
            model: event.model,
            provider: event.provider,
          },
        );
      }
      return cost;
    } catch (error) {
      report.report('pricing', 'error', 'pricing failed; usage logged at zero cost', {
        model: event.model,
        error: describeError(error),
      });
      return {
        costMicroUsd: 0,
        componentsMicroUsd: { input: 0, cachedInput: 0, output: 0, thinking: 0 },
        pricedAs: null,
        longContext: false,
      };
    }
  };

  const traceGeneration = (event: UsageEvent, cost: UsageCost): UsageOutcome['traced'] => {
    if (!options.tracing.enabled) return 'disabled';
    if (!remember(event.generationId)) return 'duplicate';
    const u = event.usage;
    const c = cost.componentsMicroUsd;
    options.tracing.generation({
      name: [event.node, ...(event.alsoFor ?? []).map((p) => p.node)]
        .map(generationName)
        .join(' + '),
      model: event.model,
      input: { system: clip(event.input.system), prompt: clip(event.input.prompt) },
      output: event.output,
      usage: {
        input: Math.max(0, u.inputTokens - u.cachedInputTokens),
        cachedInput: u.cachedInputTokens,
        output: u.outputTokens,
        thinking: u.thinkingTokens,
        total: u.totalTokens,
      },
      cost: {
        input: microUsdToUsd(c.input),
        cachedInput: microUsdToUsd(c.cachedInput),
        output: microUsdToUsd(c.output),
        thinking: microUsdToUsd(c.thinking),
        // The rounded figure the usage log bills, so LangFuse totals match invoices.
        total: microUsdToUsd(cost.costMicroUsd),
      },
      ...timesOf(event),
      metadata: {
        generationId: event.generationId,
        node: event.node,
        ...(event.alsoFor?.length ? { alsoFor: event.alsoFor.map((p) => p.node).join(',') } : {}),
        actionType: event.actionType,
        provider: event.provider,
        costMicroUsd: cost.costMicroUsd,
        pricedAs: cost.pricedAs ?? 'default',
      },
      // A failed call is an ERROR observation with its reason; the exception itself is
      // Sentry's (docs/specs.md, "LangFuse and Sentry": no error logging in LangFuse beyond the LLM
      // call's status).
      ...(event.error !== undefined ? { level: 'ERROR' as const, statusMessage: event.error } : {}),
      traceId: event.context.traceId ?? null,
    });
    return 'recorded';
  };

  function record(event: UsageEvent): Promise<UsageOutcome> {
    const cost = costOf(event);
    const ctx = event.context;
    // Started synchronously, in the caller's async context, so the generation nests under the
    // node span that made the call.
    const tracePromise = new Promise<UsageOutcome['traced']>((resolve) =>
      resolve(traceGeneration(event, cost)),
    );
    const logs = splitUsage(event, { ...event.usage, costMicroUsd: cost.costMicroUsd });
    const storePromise = (async () => {
      let inserted = false;
      // The caller's log first: a part is never billed without the call it belongs to. A
      // replayed event finds every id already there and changes nothing.
      for (const log of logs) {
        const added = await options.store.tokenUsage.append(ctx.tenantId, {
          id: `${event.generationId}${log.idSuffix}`,
          partOf: log.partNode === null ? null : event.generationId,
          userId: ctx.userId ?? null,
          sessionId: ctx.sessionId ?? null,
          messageId: ctx.messageId ?? null,
          taskId: ctx.taskId ?? null,
          traceId: ctx.traceId ?? options.tracing.currentTraceId(),
          provider: event.provider,
          model: event.model,
          actionType: log.actionType,
          inputTokens: log.amounts.inputTokens,
          outputTokens: log.amounts.outputTokens,
          cachedInputTokens: log.amounts.cachedInputTokens,
          thinkingTokens: log.amounts.thinkingTokens,
          totalTokens: log.amounts.totalTokens,
          costMicroUsd: log.amounts.costMicroUsd,
          durationMs: Math.max(0, Math.round(event.latencyMs)),
          timestamp: timesOf(event).startTime.toISOString(),
        });
        if (log.partNode === null) inserted = added;
      }
      return inserted;
    })();

    const settled = Promise.allSettled([storePromise, tracePromise]).then(
      ([stored, tracedResult]): UsageOutcome => {
        if (stored.status === 'rejected') {
          // Billing data lost: every occurrence is logged, with what is needed to replay it.
          options.log.error('usage log write failed', {
            generationId: event.generationId,
            tenantId: ctx.tenantId,
            model: event.model,
            costMicroUsd: cost.costMicroUsd,
            error: describeError(stored.reason),
          });
        }
        if (tracedResult.status === 'rejected') {
          report.report('langfuse-generation', 'warn', 'LangFuse generation not recorded', {
            generationId: event.generationId,
            error: describeError(tracedResult.reason),
          });
        }
        return {
          generationId: event.generationId,
          costMicroUsd: cost.costMicroUsd,
          stored: stored.status === 'rejected' ? 'failed' : stored.value ? 'inserted' : 'duplicate',
          traced: tracedResult.status === 'rejected' ? 'failed' : tracedResult.value,
        };
      },
    );
    inflight.add(settled);
    void settled.finally(() => inflight.delete(settled));
    return settled;
  }

  return {
    recordUsage: (event) => {
      try {
        void record(event);
      } catch (error) {
        // record() only throws on a malformed event (no context); still never the caller's problem.
        report.report('usage-event', 'error', 'usage event could not be recorded', {
          error: describeError(error),
        });
      }
      return Promise.resolve();
    },
    record,
    async drain(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (inflight.size > 0 && Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
      }
    },
    get pending() {
      return inflight.size;
    },
  };
}
