// The fields a task patch may change, listed once for both adapters: each one's libSQL column,
// and whether it is JSON-ish (TEXT through toJson in libSQL, through jsonValue in Mongo). Only
// these keys are ever written, so a patch can never touch id, tenantId, userId, version or
// createdAt whatever object it is at run time.
import type { TaskPatch } from './record';

export const TASK_PATCH_FIELDS: {
  [K in keyof Required<TaskPatch>]: { column: string; json: boolean };
} = {
  sessionId: { column: 'session_id', json: false },
  url: { column: 'url', json: false },
  query: { column: 'query', json: false },
  status: { column: 'status', json: false },
  complexity: { column: 'complexity', json: false },
  plan: { column: 'plan', json: true },
  hierarchicalPlan: { column: 'hierarchical_plan', json: true },
  currentStepIndex: { column: 'current_step_index', json: false },
  corrections: { column: 'corrections', json: true },
  metrics: { column: 'metrics', json: true },
  lastChain: { column: 'last_chain', json: true },
  webSearchResult: { column: 'web_search_result', json: true },
  result: { column: 'result', json: false },
  collectLimit: { column: 'collect_limit', json: false },
  consecutiveFailures: { column: 'consecutive_failures', json: false },
  consecutiveSuccessWithoutTaskComplete: {
    column: 'consecutive_success_without_task_complete',
    json: false,
  },
};
