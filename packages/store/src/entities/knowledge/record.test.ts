// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import {
  defaultKnowledgeSettings,
  newKnowledgeChunkRecord,
  newKnowledgeDocumentRecord,
  newKnowledgeJobRecord,
} from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newKnowledgeDocumentRecord / newKnowledgeChunkRecord', () => {
  const base = { domain: 'a.example', title: 'Guide', mimeType: 'text/markdown' };

  it('starts a document pending, with no source and empty metadata', () => {
    expect(newKnowledgeDocumentRecord(T, base, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...base,
      sourceUrl: null,
      status: 'pending',
      metadata: {},
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps a given document id, source, status and metadata', () => {
    const given = {
      ...base,
      id: 'd1',
      sourceUrl: 'https://a.example/guide',
      status: 'ready' as const,
      metadata: { pages: 2 },
    };
    expect(newKnowledgeDocumentRecord(T, given, NOW)).toMatchObject(given);
  });

  it('gives each document its own metadata object', () => {
    const a = newKnowledgeDocumentRecord(T, base, NOW);
    a.metadata.touched = true;
    expect(newKnowledgeDocumentRecord(T, base, NOW).metadata).toEqual({});
  });

  it("takes a chunk's document and domain from the document, never superseded", () => {
    const document = { id: 'd1', domain: 'a.example' };
    expect(newKnowledgeChunkRecord(T, document, { ordinal: 0, content: 'x' }, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      documentId: 'd1',
      domain: 'a.example',
      ordinal: 0,
      content: 'x',
      headingPath: [],
      tokenCount: 0,
      embedding: null,
      phase: null,
      triggerAction: null,
      supersededBy: null,
      createdAt: NOW,
    });
  });

  it('keeps given chunk fields', () => {
    const given = {
      ordinal: 1,
      content: 'y',
      id: 'c1',
      headingPath: ['Intro'],
      tokenCount: 12,
      embedding: [0.5, -1],
      phase: 'post-interaction' as const,
      triggerAction: 'click(4)',
    };
    const chunk = newKnowledgeChunkRecord(T, { id: 'd1', domain: '' }, given, NOW);
    expect(chunk).toMatchObject({ ...given, domain: '', supersededBy: null });
  });
});

describe('newKnowledgeJobRecord / defaultKnowledgeSettings', () => {
  const input = {
    url: 'https://docs.example/',
    strategy: 'spider' as const,
    maxPages: 20,
    maxDepth: 2,
    domain: 'docs.example',
  };

  it('queues a crawl with zero progress and empty state', () => {
    expect(newKnowledgeJobRecord(T, input, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      userId: null,
      kind: 'crawl',
      upload: null,
      ...input,
      status: 'queued',
      progress: { discovered: 0, fetched: 0, ingested: 0, unchanged: 0, skipped: 0, failed: 0 },
      frontier: [],
      visited: [],
      errors: [],
      error: null,
      createdAt: NOW,
      updatedAt: NOW,
      startedAt: null,
      finishedAt: null,
    });
    const given = { ...input, id: 'j1', userId: 'u1', frontier: [{ url: input.url, depth: 0 }] };
    expect(newKnowledgeJobRecord(T, given, NOW)).toMatchObject(given);
  });

  it('never shares mutable defaults between two jobs', () => {
    const a = newKnowledgeJobRecord(T, input, NOW);
    const b = newKnowledgeJobRecord(T, input, NOW);
    a.progress.fetched = 5;
    a.visited.push('x');
    expect(b.progress.fetched).toBe(0);
    expect(b.visited).toEqual([]);
  });

  it('allows every site until a tenant saves settings', () => {
    expect(defaultKnowledgeSettings(T)).toEqual({
      tenantId: T,
      allowedDomains: [],
      updatedAt: null,
    });
  });
});
