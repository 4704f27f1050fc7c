// Typed wrappers around window.TandemPage calls made through page.evaluate.
import type { ClientObservations, SemanticNodeV3 } from '@tandem/contracts';
import type { Page } from 'playwright-core';
import type {
  CaptureOptions,
  CaptureResult,
  ExecuteResult,
  PageState,
  PageStateOptions,
  StabilityOptions,
  StabilityResult,
} from '../../src/index';

type SerializableCaptureOptions = Omit<CaptureOptions, 'document'>;

export const capture = (
  page: Page,
  options: SerializableCaptureOptions = {},
): Promise<CaptureResult> => page.evaluate((o) => window.TandemPage.captureTree(o), options);

export const pageState = (
  page: Page,
  options: Omit<PageStateOptions, 'document' | 'onFallback'> = {},
): Promise<PageState> => page.evaluate((o) => window.TandemPage.capturePageState(o), options);

export const run = (page: Page, action: string): Promise<ExecuteResult> =>
  page.evaluate((a) => window.TandemPage.execute(a), action);

export const stability = (
  page: Page,
  options: Partial<StabilityOptions> = {},
): Promise<StabilityResult> => page.evaluate((o) => window.TandemPage.waitForStability(o), options);

/** Executes an action inside observeAction (with the stability wait) and returns both. */
export const observe = (
  page: Page,
  action: string,
  options: Partial<StabilityOptions> = {},
): Promise<{
  result: ExecuteResult;
  observations: ClientObservations;
  stability: StabilityResult | undefined;
}> =>
  page.evaluate(
    async ({ a, o }) => {
      const observed = await window.TandemPage.observeAction(() => window.TandemPage.execute(a), {
        stability: o,
      });
      return {
        result: observed.value,
        observations: observed.observations,
        stability: observed.stability,
      };
    },
    { a: action, o: options },
  );

export function node(tree: SemanticNodeV3[], name: string): SemanticNodeV3 {
  const found = tree.filter((n) => n.n === name);
  if (found.length !== 1)
    throw new Error(
      `expected one node named ${JSON.stringify(name)}, found ${found.length}: ${JSON.stringify(tree.map((n) => n.n))}`,
    );
  return found[0] as SemanticNodeV3;
}

export const names = (tree: SemanticNodeV3[]): (string | undefined)[] => tree.map((n) => n.n);

/** Narrows away null/undefined, failing the test with a message instead of a TypeError. */
export function must<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`expected ${what} to be present`);
  return value;
}
