// A stored routine version for tests that need one without a store (matchers, query builders,
// the agent's rerun tests): version 1 of a routine never run, every field set.
import type { Routine } from '../port';

export function routineRecord(over: Partial<Routine> = {}): Routine {
  const at = over.createdAt ?? '2026-11-12T09:00:00.000Z';
  return {
    id: 'r1',
    tenantId: 't1',
    site: 'emr.test',
    goalTemplate: 'Add patient {firstName}',
    name: 'Add patient',
    parameters: [],
    steps: [],
    version: 1,
    sourceTaskId: null,
    enabled: true,
    runs: 0,
    heals: 0,
    tokensSaved: 0,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}
