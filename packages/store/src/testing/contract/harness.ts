// Shared plumbing for the contract suite. Every test makes its own tenant with a random name,
// so the suite can run against a persistent database (a shared MongoDB) without cleanup and
// without tests seeing each other's rows.
import { randomUUID } from 'node:crypto';
import type { LlmActionType } from '@tandem/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import type { NewTaskAction, NewTokenUsageLog, Store } from '../../port';

export type MakeStore = () => Promise<Store>;

/** Opens one store for the enclosing describe block and closes it afterwards. */
export function useStore(makeStore: MakeStore): () => Store {
  let store: Store | undefined;
  beforeAll(async () => {
    store = await makeStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });
  return () => {
    if (store === undefined) throw new Error('contract suite: the store is not open yet');
    return store;
  };
}

export const uniq = (label: string): string => `${label}-${randomUUID()}`;

export async function newTenant(store: Store): Promise<string> {
  const tenant = await store.tenants.create({ name: uniq('contract-tenant') });
  return tenant.id;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Distinct creation times: ordering assertions must not depend on same-millisecond ties. */
export const tick = (): Promise<void> => sleep(3);

export function expectIso(value: string | null | undefined): void {
  expect(typeof value).toBe('string');
  expect(new Date(value as string).toISOString()).toBe(value);
}

export const isoAt = (ms: number): string => new Date(ms).toISOString();

export function actionInput(
  taskId: string,
  stepIndex: number,
  overrides: Partial<NewTaskAction> = {},
): NewTaskAction {
  return {
    taskId,
    stepIndex,
    thought: `thought ${stepIndex}`,
    action: `click(${stepIndex})`,
    expectedOutcome: null,
    beforeState: null,
    verification: null,
    status: 'pending',
    metrics: null,
    ...overrides,
  };
}

export function usageInput(overrides: Partial<NewTokenUsageLog> = {}): NewTokenUsageLog {
  return {
    id: uniq('gen'),
    partOf: null,
    userId: 'user-1',
    sessionId: null,
    messageId: null,
    taskId: null,
    traceId: null,
    provider: 'SCRIPTED',
    model: 'model-a',
    actionType: 'PLANNING' satisfies LlmActionType,
    inputTokens: 100,
    outputTokens: 20,
    cachedInputTokens: 0,
    thinkingTokens: 0,
    totalTokens: 120,
    costMicroUsd: 1500,
    durationMs: 40,
    timestamp: new Date().toISOString(),
    ...overrides,
  };
}
