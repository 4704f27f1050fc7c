// The generated OpenAPI document, checked by @seriousme/openapi-schema-validator against the
// official OpenAPI 3.1 schema (and its JSON Schema 2020-12 dialect for every embedded schema),
// then against the registry it claims to describe.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointDefinition } from './endpoints';
import { buildOpenApiDocument, openApiPath } from './openapi';

const document = buildOpenApiDocument({ version: '1.2.3', serverUrl: 'http://127.0.0.1:3000' });
type Operation = {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
const operationOf = (endpoint: EndpointDefinition) =>
  document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()] as Operation;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  // The OpenAPI 3.1 schema takes any object as a Schema Object: each embedded schema is also
  // checked against the JSON Schema 2020-12 meta-schema (Ajv, the validator's own engine).
  it('every embedded schema is valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schemas: unknown[] = [];
    const collect = (value: unknown, key?: string): void => {
      if (value === null || typeof value !== 'object') return;
      if (key === 'schema' || key === 'x-event-data-schema') schemas.push(value);
      for (const [k, v] of Object.entries(value)) collect(v, Array.isArray(value) ? key : k);
    };
    collect(document.paths);
    schemas.push(...Object.values((document.components as { schemas: object }).schemas));
    expect(schemas.length).toBeGreaterThan(40);
    const invalid = schemas.filter((schema) => !ajv.validateSchema(schema as object));
    expect(invalid).toEqual([]);
    expect(ajv.validateSchema({ type: 'strng' })).toBe(false);
  });

  it('a broken document is refused (the validator really checks)', async () => {
    const broken = structuredClone(document);
    const cancel = broken.paths['/api/tasks/{taskId}/cancel']?.post as Operation;
    // OpenAPI 2's body parameter does not exist in 3.x.
    cancel.parameters.push({ name: 'body', in: 'body', required: true });
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has one operation per registry endpoint, named after it', () => {
    const entries = Object.entries(endpoints) as [string, EndpointDefinition][];
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(entries.length);
    for (const [name, endpoint] of entries) expect(operationOf(endpoint).operationId).toBe(name);
  });

  it('carries path parameters, auth, bodies and every error status of an endpoint', () => {
    const cancel = operationOf(endpoints.cancelTask);
    expect(cancel.parameters).toEqual([
      expect.objectContaining({ name: 'taskId', in: 'path', required: true }),
    ]);
    expect(cancel.security).toEqual([{ bearerAuth: [] }]);
    expect(operationOf(endpoints.health).security).toEqual([]);
    const interact = operationOf(endpoints.interact);
    expect(Object.keys(interact.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(interact.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '409', '413', '429', '500', '502', '503']),
    );
    expect(Object.keys(operationOf(endpoints.knowledgeIngest).requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
    ]);
    expect(Object.keys(operationOf(endpoints.knowledgeIndexLink).responses)).toContain('202');
    // An upload for extraction: multipart with its file, answered 201 (never a 200).
    const upload = operationOf(endpoints.documentsUpload);
    expect(upload.requestBody?.content['multipart/form-data']?.schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string' } },
    });
    expect(Object.keys(upload.responses)).toContain('201');
    expect(Object.keys(upload.responses)).not.toContain('200');
    expect(Object.keys(operationOf(endpoints.taskEvents).responses['200']?.content ?? {})).toEqual([
      'text/event-stream',
    ]);
  });
});
