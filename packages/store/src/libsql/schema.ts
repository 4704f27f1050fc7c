// Version 1 of the core schema. Applied once by migrations.ts; never edit a shipped
// migration — add a new one instead.
//
// Conventions: times are ISO-8601 TEXT (UTC, ms), so they sort as text; JSON fields are TEXT
// written with JSON.stringify; every tenant-owned table leads its indexes with tenant_id so
// each lookup the port offers is a tenant-scoped index range.
//
// Each entity's tables are declared in its folder (src/entities/*/libsql-schema.ts); this is
// only their shipped order, which must not change either.
import { COLLECTED_ITEM_TABLES_V1 } from '../entities/collected-item/libsql-schema';
import { EXTRACTION_TABLES_V1 } from '../entities/extraction/libsql-schema';
import { IDEMPOTENCY_TABLES_V1 } from '../entities/idempotency/libsql-schema';
import { KNOWLEDGE_TABLES_V1 } from '../entities/knowledge/libsql-schema';
import { SESSION_TABLES_V1 } from '../entities/session/libsql-schema';
import { SKILL_TABLES_V1 } from '../entities/skill/libsql-schema';
import { TASK_TABLES_V1 } from '../entities/task/libsql-schema';
import { TENANT_TABLES_V1 } from '../entities/tenant/libsql-schema';
import { TOKEN_USAGE_TABLES_V1 } from '../entities/token-usage/libsql-schema';

export const CORE_SCHEMA_V1: string[] = [
  ...TENANT_TABLES_V1,
  ...SESSION_TABLES_V1,
  ...TASK_TABLES_V1,
  ...TOKEN_USAGE_TABLES_V1,
  ...SKILL_TABLES_V1,
  ...KNOWLEDGE_TABLES_V1,
  ...EXTRACTION_TABLES_V1,
  ...COLLECTED_ITEM_TABLES_V1,
  ...IDEMPOTENCY_TABLES_V1,
];
