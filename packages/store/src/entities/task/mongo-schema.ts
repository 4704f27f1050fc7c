// The task and task-action collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { Task, TaskAction } from './record';

export type TaskDoc = MongoDoc<
  Task,
  'createdAt' | 'updatedAt',
  'plan' | 'hierarchicalPlan' | 'corrections' | 'metrics' | 'lastChain' | 'webSearchResult'
>;

export type TaskActionDoc = MongoDoc<
  TaskAction,
  'createdAt',
  'expectedOutcome' | 'beforeState' | 'verification' | 'metrics'
>;

export const taskSchema = new Schema<TaskDoc>(
  {
    ...tenantOwned,
    userId: String,
    sessionId: String,
    url: String,
    query: String,
    status: String,
    complexity: String,
    plan: Mixed,
    hierarchicalPlan: Mixed,
    currentStepIndex: Number,
    corrections: Mixed,
    metrics: Mixed,
    lastChain: Mixed,
    webSearchResult: Mixed,
    result: String,
    collectLimit: Number,
    consecutiveFailures: Number,
    consecutiveSuccessWithoutTaskComplete: Number,
    version: Number,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
taskSchema.index({ tenantId: 1, id: 1 }, { unique: true });
taskSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
taskSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
// findActive and list({ sessionId }).
taskSchema.index({ tenantId: 1, sessionId: 1, status: 1, createdAt: -1 });
// expireStale.
taskSchema.index({ tenantId: 1, status: 1, updatedAt: 1 });

export const taskActionSchema = new Schema<TaskActionDoc>(
  {
    ...tenantOwned,
    taskId: String,
    stepIndex: Number,
    thought: String,
    action: String,
    expectedOutcome: Mixed,
    beforeState: Mixed,
    verification: Mixed,
    status: String,
    metrics: Mixed,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
taskActionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
taskActionSchema.index({ tenantId: 1, taskId: 1, stepIndex: 1, createdAt: 1 });
