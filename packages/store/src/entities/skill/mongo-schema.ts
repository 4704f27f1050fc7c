// The skills collection. Every index the adapter relies on is declared here: createMongoStore's
// syncIndexes() drops the ones that are not.
import { SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import { SKILL_TTL_MS, type Skill } from './record';

export type SkillDoc = MongoDoc<Skill, 'lastUsed' | 'createdAt'>;

const TTL_SECONDS = SKILL_TTL_MS / 1000;

export const skillSchema = new Schema<SkillDoc>(
  {
    ...tenantOwned,
    domain: String,
    goal: String,
    failedState: { action: String, elementDescription: String, errorType: String },
    successfulAction: { action: String, elementDescription: String, strategy: String },
    successCount: Number,
    failureCount: Number,
    lastUsed: Date,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
skillSchema.index({ tenantId: 1, id: 1 }, { unique: true });
skillSchema.index({ tenantId: 1, domain: 1, goal: 1 });
// Dedupe key of upsert().
skillSchema.index(
  {
    tenantId: 1,
    domain: 1,
    goal: 1,
    'failedState.action': 1,
    'successfulAction.action': 1,
  },
  { unique: true },
);
// find(): a domain's skills, most recently used first.
skillSchema.index({ tenantId: 1, domain: 1, lastUsed: -1 });
// The spec's 90-day TTL since lastUsed. The monitor runs about once a minute, so find() also
// filters on lastUsed itself.
skillSchema.index({ lastUsed: 1 }, { expireAfterSeconds: TTL_SECONDS });
