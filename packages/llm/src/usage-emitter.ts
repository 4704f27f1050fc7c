// Hands each call's usage event to the usage hook without letting the hook touch the call.
import type { UsageEvent } from '@tandem/observability';
import type { UsageHook } from './port';

export type HookErrorReporter = (error: unknown, event: UsageEvent) => void;

/** Lost usage is lost billing: it must at least be visible in the logs. */
export const reportHookErrorToConsole: HookErrorReporter = (error, event) => {
  console.error(`[llm] usage hook failed for generation ${event.generationId}`, error);
};

/**
 * Returns `emit`, which never throws and never waits: the hook runs on a later microtask and
 * its failure (a throw or a rejection) goes to `onHookError`. A slow or failing hook (store
 * write, tracing) must never delay or fail the LLM call it reports on.
 */
export function createUsageEmitter(
  hook: UsageHook | undefined,
  onHookError: HookErrorReporter = reportHookErrorToConsole,
): (event: UsageEvent) => void {
  return (event) => {
    if (hook === undefined) return;
    void Promise.resolve()
      .then(() => hook(event))
      .catch((error: unknown) => {
        try {
          onHookError(error, event);
        } catch {
          // The error reporter itself failed; nothing left to tell.
        }
      });
  };
}
