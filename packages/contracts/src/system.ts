// Service-level responses: health and API-key check.
import { z } from 'zod';
import { ApiKeyRole } from './domain';

export const StoreKind = z.enum(['libsql', 'mongodb']);
export type StoreKind = z.infer<typeof StoreKind>;

/** GET /api/health. Answered with 503 (same body) when `status` is "degraded". */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  store: StoreKind,
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  storeLatencyMs: z.number().nonnegative(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** GET /api/auth/whoami: lets the extension's options page check a server URL + API key. */
export const WhoAmIResponse = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  userId: z.string(),
  role: ApiKeyRole,
  store: StoreKind,
});
export type WhoAmIResponse = z.infer<typeof WhoAmIResponse>;

/**
 * GET /api/openapi.json: the API as an OpenAPI 3.1 document (built by `buildOpenApiDocument`
 * from the endpoint registry). Only its frame is checked here; a validator checks the rest.
 */
export const OpenApiDocument = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;
