// The routines collection, one document per version. Every index the adapter relies on is
// declared here: createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { Routine } from './record';

export type RoutineDoc = MongoDoc<Routine, 'createdAt' | 'updatedAt', 'parameters' | 'steps'>;

export const routineSchema = new Schema<RoutineDoc>(
  {
    ...tenantOwned,
    site: String,
    goalTemplate: String,
    name: String,
    parameters: Mixed,
    steps: Mixed,
    version: Number,
    sourceTaskId: String,
    enabled: Boolean,
    runs: Number,
    heals: Number,
    tokensSaved: Number,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
routineSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// findLatest and the next version number; unique, so two writers cannot take one number.
routineSchema.index({ tenantId: 1, site: 1, goalTemplate: 1, version: -1 }, { unique: true });
// list: newest first, optionally one site's.
routineSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
routineSchema.index({ tenantId: 1, site: 1, createdAt: -1, id: -1 });
