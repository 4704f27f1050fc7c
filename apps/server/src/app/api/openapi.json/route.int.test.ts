// GET /api/openapi.json through the real route: public, JSON, and exactly the document the
// contracts build from the registry (which openapi.test.ts validates as OpenAPI 3.1).
import { buildOpenApiDocument, OpenApiDocument } from '@tandem/contracts';
import { expect, it } from 'vitest';
import { request, testRuntime } from '../../../test/harness';
import { GET } from './route';

it('serves the OpenAPI document of the registry without a key', async () => {
  const runtime = await testRuntime();
  try {
    const res = await GET.withRuntime(runtime)(request('/api/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = OpenApiDocument.parse(await res.json());
    expect(body).toEqual(
      buildOpenApiDocument({ version: runtime.version, serverUrl: 'http://127.0.0.1:3000' }),
    );
    expect(body.paths['/api/agent/interact']?.post).toBeDefined();
  } finally {
    await runtime.close();
  }
});
