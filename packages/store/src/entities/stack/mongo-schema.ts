// The stacks and stack-rows collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { Stack, StackRow } from './record';

export type StackDoc = MongoDoc<Stack, 'createdAt' | 'updatedAt', 'documentIds' | 'columns'>;

export type StackRowDoc = MongoDoc<StackRow, 'createdAt' | 'updatedAt', 'cells' | 'confidences'> & {
  /** The stack's owner, copied onto its rows so a row write is scoped to the user by itself. */
  userId: string;
  position: number;
};

export const stackSchema = new Schema<StackDoc>(
  {
    ...tenantOwned,
    userId: String,
    name: String,
    documentIds: Mixed,
    columns: Mixed,
    status: String,
    instructions: String,
    costMicroUsd: Number,
    tokens: Number,
    error: String,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
stackSchema.index({ tenantId: 1, id: 1 }, { unique: true });
stackSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
stackSchema.index({ tenantId: 1, createdAt: -1, id: -1 });

export const stackRowSchema = new Schema<StackRowDoc>(
  {
    tenantId: { type: String, required: true },
    stackId: String,
    userId: String,
    documentId: String,
    position: Number,
    cells: Mixed,
    confidences: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
stackRowSchema.index({ tenantId: 1, stackId: 1, documentId: 1 }, { unique: true });
stackRowSchema.index({ tenantId: 1, stackId: 1, position: 1 });
