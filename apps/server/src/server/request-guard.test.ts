import { describe, expect, it } from 'vitest';
import { apiRefusal } from './request-guard';

describe('apiRefusal', () => {
  it('lets through every request a route answers, and everything outside /api', () => {
    expect(apiRefusal('GET', '/api/health')).toBeNull();
    expect(apiRefusal('GET', '/api/health/')).toBeNull();
    expect(apiRefusal('HEAD', '/api/health')).toBeNull();
    expect(apiRefusal('OPTIONS', '/api/stacks/abc')).toBeNull();
    expect(apiRefusal('POST', '/api/agent/interact?x=%zz')).toBeNull();
    expect(apiRefusal('GET', '/api/stacks/b2f0%20x')).toBeNull();
    expect(apiRefusal('PUT', '/api/knowledge/settings')).toBeNull();
    expect(apiRefusal('GET', '/admin/%zz')).toBeNull();
    expect(apiRefusal('GET', '/apiary')).toBeNull();
  });

  it('answers a malformed percent-encoding in the path with 400, not Next’s plain-text 500', () => {
    for (const path of [
      '/api/stacks/%zz',
      '/api/stacks/%FF',
      '/api/stacks/%C0%AF',
      '/api/%E0%A4%A',
    ]) {
      expect(apiRefusal('GET', path)).toEqual({
        code: 'BAD_REQUEST',
        message:
          'The request path has a malformed percent-encoding (a "%" not followed by a UTF-8 byte sequence).',
      });
    }
  });

  it('answers dot segments and unknown paths with a JSON 404', () => {
    for (const path of [
      '/api/stacks/..',
      '/api/stacks/.',
      '/api/stacks/%2e%2e',
      '/api//health',
      '/api',
      '/api/nope',
    ]) {
      expect(apiRefusal('GET', path)?.code).toBe('NOT_FOUND');
    }
    expect(apiRefusal('GET', '/api/nope')?.message).toBe('No API route at /api/nope.');
  });

  it('answers another method with 405 and the methods the path answers', () => {
    expect(apiRefusal('DELETE', '/api/documents')).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: '/api/documents answers POST, GET, not DELETE.',
      headers: { Allow: 'POST, GET' },
    });
    expect(apiRefusal('POST', '/api/health')?.headers).toEqual({ Allow: 'GET' });
  });
});
