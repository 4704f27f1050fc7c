// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import {
  newExtractionRecord,
  newExtractionResultRecord,
  newExtractionStrategyRecord,
} from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newExtractionStrategyRecord', () => {
  it('starts a strategy at zero counts, with no replay unless given, used now', () => {
    const input = {
      domain: 'a.example',
      urlPattern: 'https://a.example/jobs/*',
      cssSelector: null,
      outputSchema: { type: 'array' },
      schemaHash: 'h',
      queryTemplate: 'every job',
    };
    expect(newExtractionStrategyRecord(T, input, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...input,
      replay: null,
      successCount: 0,
      failureCount: 0,
      lastUsed: NOW,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const replay = { rows: 'li.job', fields: { title: 'h2' } };
    const given = { ...input, cssSelector: 'main', replay, stray: 'dropped' };
    const strategy = newExtractionStrategyRecord(T, given, NOW);
    expect(strategy).toMatchObject({ cssSelector: 'main', replay });
    expect(strategy).not.toHaveProperty('stray');
  });
});

describe('newExtractionRecord / newExtractionResultRecord', () => {
  const schema = { type: 'object' };

  it('starts an extraction pending with no task, data or error', () => {
    expect(newExtractionRecord(T, { url: 'https://a.example/', schema }, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      taskId: null,
      url: 'https://a.example/',
      schema,
      data: null,
      status: 'pending',
      error: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps given extraction fields', () => {
    const given = {
      url: 'https://a.example/',
      schema,
      id: 'e1',
      taskId: 'task-1',
      data: { price: 0 },
      status: 'failed' as const,
      error: 'no price',
    };
    expect(newExtractionRecord(T, given, NOW)).toMatchObject(given);
  });

  it('copies every given extraction result field and stamps it now', () => {
    const input = {
      taskId: null,
      extractionId: 'strategy-1',
      query: 'every product',
      sourceUrl: 'https://a.example/p',
      data: [{ name: 'Shoe' }],
      schemaUsed: { type: 'array' },
      isPartial: false,
      method: 'model' as const,
      contentStats: {
        sourceChars: 10,
        markdownChars: 8,
        chunks: 1,
        failedChunks: 0,
        structuralContext: [],
        items: 1,
        modelCalls: 1,
        inputTokens: 5,
        outputTokens: 3,
        costMicroUsd: 7,
        durationMs: 2,
      },
      warnings: [],
      errors: [],
    };
    expect(newExtractionResultRecord(T, input, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...input,
      createdAt: NOW,
    });
    expect(newExtractionResultRecord(T, { ...input, id: 'r1' }, NOW).id).toBe('r1');
  });
});
