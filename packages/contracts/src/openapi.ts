// The API as an OpenAPI 3.1 document, built from the endpoint registry (the same source as
// docs/api.md and the extension's client), so it cannot drift from what the routes validate.
// OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod's toJSONSchema writes.
import { toDocJsonSchema } from './api-doc';
import { COMMON_ERROR_CODES, endpoints, type EndpointDefinition } from './endpoints';
import { ERROR_HTTP_STATUS, ErrorResponse, type ErrorCode } from './errors';
import type { OpenApiDocument } from './system';

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  /** The server's version (info.version). */
  version: string;
  /** Where the API is served, when known (a `servers` entry). */
  serverUrl?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorResponse' };

/** `/api/tasks/:taskId/cancel` → `/api/tasks/{taskId}/cancel`. */
export const openApiPath = (path: string): string =>
  path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** `/api/knowledge/jobs` → `knowledge`; the group an operation is listed under. */
const tagOf = (path: string): string => {
  const group = path.split('/')[2] ?? 'system';
  return ['agent', 'tasks', 'session'].includes(group)
    ? 'agent'
    : ['knowledge', 'admin', 'extract'].includes(group)
      ? group
      : 'system';
};

/**
 * A schema as the document embeds it. A `$ref` inside an embedded schema resolves against the
 * document, not the schema, so definitions zod emits (recursive types) move to components.
 */
function embed(schema: Json, components: Record<string, Json>, owner: string): Json {
  const defs = schema.$defs as Record<string, Json> | undefined;
  if (!defs) return schema;
  const { $defs: _defs, ...rest } = schema;
  const rename = (name: string) => `${owner}_${name}`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
          ? `#/components/schemas/${rename(inner.slice('#/$defs/'.length))}`
          : rewrite(inner),
      ]),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[rename(name)] = rewrite(def) as Json;
  return rewrite(rest) as Json;
}

/** The properties of an object schema as OpenAPI parameters (path or query). */
function parameters(schema: Json, where: 'path' | 'query'): Json[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: `Error envelope; \`error.code\` is one of ${list.map((c) => `\`${c}\``).join(', ')}.`,
          ...(status === 429
            ? {
                headers: {
                  'Retry-After': {
                    description: 'Seconds until the request may succeed.',
                    schema: { type: 'integer', minimum: 1 },
                  },
                },
              }
            : {}),
          content: { 'application/json': { schema: ERROR_REF } },
        },
      ]),
  );
}

function requestBody(endpoint: EndpointDefinition, components: Record<string, Json>, name: string) {
  if (endpoint.request) {
    return {
      required: true,
      content: {
        'application/json': {
          schema: embed(toDocJsonSchema(endpoint.request, 'input'), components, `${name}Request`),
        },
      },
    };
  }
  if (endpoint.form) {
    const fields = toDocJsonSchema(endpoint.form, 'input');
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            ...fields,
            properties: {
              file: { type: 'string', contentMediaType: 'application/octet-stream' },
              ...((fields.properties ?? {}) as Json),
            },
            required: ['file', ...((fields.required ?? []) as string[])],
          },
        },
      },
    };
  }
  return undefined;
}

function operation(name: string, endpoint: EndpointDefinition, components: Record<string, Json>) {
  const response = embed(toDocJsonSchema(endpoint.response, 'output'), components, name);
  const content =
    endpoint.stream === 'sse'
      ? // OpenAPI 3.1 has no schema for one event (3.2's itemSchema); an extension carries it.
        { 'text/event-stream': { schema: { type: 'string' }, 'x-event-data-schema': response } }
      : { 'application/json': { schema: response } };
  const body = requestBody(endpoint, components, name);
  const authenticated = endpoint.auth !== 'none';
  return {
    operationId: name,
    summary: endpoint.summary,
    ...(endpoint.notes?.length ? { description: endpoint.notes.join('\n\n') } : {}),
    tags: [tagOf(endpoint.path)],
    security: authenticated ? [{ bearerAuth: [] }] : [],
    ...(endpoint.auth === 'admin' ? { 'x-tandem-auth': 'admin' } : {}),
    parameters: [
      ...(endpoint.params ? parameters(toDocJsonSchema(endpoint.params, 'input'), 'path') : []),
      ...(endpoint.query ? parameters(toDocJsonSchema(endpoint.query, 'input'), 'query') : []),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...Object.fromEntries(
        (endpoint.successStatuses ?? [200]).map((status) => [
          String(status),
          {
            description:
              endpoint.stream === 'sse'
                ? 'A stream of server-sent events; each `data` is one JSON value of this schema.'
                : 'Success.',
            content,
          },
        ]),
      ),
      ...errorResponses([...endpoint.errors, ...COMMON_ERROR_CODES]),
    },
  };
}

/** The OpenAPI 3.1 document of every endpoint in the registry. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const components: Record<string, Json> = {
    ErrorResponse: toDocJsonSchema(ErrorResponse, 'output'),
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(endpoints) as [string, EndpointDefinition][]) {
    const path = openApiPath(endpoint.path);
    paths[path] = {
      ...paths[path],
      [endpoint.method.toLowerCase()]: operation(name, endpoint, components),
    };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Tandem HTTP API',
      version: options.version,
      description:
        'The Tandem server: the agent loop the extension drives, task data, knowledge and admin reports. Generated from the contracts’ endpoint registry; docs/api.md is the same API as prose, with the action grammar.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'agent', description: 'The interact loop and the tasks it runs.' },
      { name: 'extract', description: 'Structured extraction without the extension.' },
      { name: 'knowledge', description: 'Documents, crawls and retrieval.' },
      { name: 'admin', description: 'Billing, KPIs and task traces (admin keys).' },
      { name: 'system', description: 'Health, key check and this document.' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A Tandem API key: `Authorization: Bearer <key>`.',
        },
      },
      schemas: components,
    },
  };
}
