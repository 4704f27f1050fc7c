// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { emptyTaskMetrics, type TaskMetrics } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { NewTaskAction } from './port';
import {
  defaultKnowledgeSettings,
  newApiKeyRecord,
  newCollectedItemRecord,
  newExtractionRecord,
  newExtractionResultRecord,
  newExtractionStrategyRecord,
  newIdempotencyRecord,
  newKnowledgeChunkRecord,
  newKnowledgeDocumentRecord,
  newKnowledgeJobRecord,
  newMessageRecord,
  newQueuedJobRecord,
  newSessionRecord,
  newSkillRecord,
  newTaskActionRecord,
  newTaskRecord,
  newTenantRecord,
} from './record-defaults';
import { hashApiKey } from './shared';

const NOW = '2025-03-04T05:06:07.089Z';
const EARLIER = '2025-01-01T00:00:00.000Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTenantRecord / newApiKeyRecord', () => {
  it('gives a tenant a fresh id unless one is given', () => {
    const a = newTenantRecord({ name: 'Acme' }, NOW);
    expect(a).toEqual({ id: expect.stringMatching(UUID), name: 'Acme', createdAt: NOW });
    expect(newTenantRecord({ name: 'Acme' }, NOW).id).not.toBe(a.id);
    expect(newTenantRecord({ name: 'Acme', id: 't-9' }, NOW).id).toBe('t-9');
  });

  it('stores a key as role user, unused, unrevoked, with its hash and prefix only', () => {
    const key = 'tdm_abcdefghijklmnopqrstuvwxyz';
    const record = newApiKeyRecord(T, { userId: 'u1', name: 'ci' }, key, NOW);
    expect(record).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      userId: 'u1',
      name: 'ci',
      role: 'user',
      prefix: 'tdm_abcdef',
      keyHash: hashApiKey(key),
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(record)).not.toContain(key);
    expect(newApiKeyRecord(T, { userId: 'u1', name: 'ci', role: 'admin' }, key, NOW).role).toBe(
      'admin',
    );
  });
});

describe('newSessionRecord / newMessageRecord', () => {
  it('opens a session active, with no url or title, created and updated now', () => {
    expect(newSessionRecord(T, { userId: 'u1' }, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      userId: 'u1',
      status: 'active',
      url: null,
      title: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps a given session id, url and title', () => {
    const given = { userId: 'u1', id: 's1', url: 'https://a.example/', title: 'A' };
    expect(newSessionRecord(T, given, NOW)).toMatchObject(given);
  });

  it('nulls every optional message field and leaves seq to the store', () => {
    const message = newMessageRecord(T, { sessionId: 's1', role: 'user', content: 'hi' }, NOW);
    expect(message).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      sessionId: 's1',
      role: 'user',
      content: 'hi',
      actionString: null,
      taskId: null,
      status: null,
      error: null,
      domSummary: null,
      createdAt: NOW,
    });
    expect(message).not.toHaveProperty('seq');
  });

  it('keeps given message fields', () => {
    const given = {
      sessionId: 's1',
      role: 'assistant' as const,
      content: 'ok',
      id: 'm1',
      actionString: 'click(3)',
      taskId: 'task-1',
      status: 'failure' as const,
      error: 'gone',
      domSummary: '<button>',
    };
    expect(newMessageRecord(T, given, NOW)).toEqual({ ...given, tenantId: T, createdAt: NOW });
  });
});

describe('newTaskRecord', () => {
  const ask = { userId: 'u1', url: 'https://a.example/', query: 'find the price' };

  it('starts a task active at step 0, version 1, with empty corrections and metrics', () => {
    expect(newTaskRecord(T, ask, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...ask,
      sessionId: null,
      status: 'active',
      complexity: null,
      plan: null,
      hierarchicalPlan: null,
      currentStepIndex: 0,
      corrections: [],
      metrics: emptyTaskMetrics(),
      lastChain: null,
      webSearchResult: null,
      result: null,
      collectLimit: null,
      consecutiveFailures: 0,
      consecutiveSuccessWithoutTaskComplete: 0,
      version: 1,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps every given field, falsy ones included', () => {
    const metrics: TaskMetrics = { ...emptyTaskMetrics(), totalSteps: 3 };
    const given = {
      ...ask,
      id: 'task-1',
      sessionId: 's1',
      status: 'executing' as const,
      complexity: 'SIMPLE' as const,
      currentStepIndex: 2,
      metrics,
      webSearchResult: { hits: 0 },
      result: '',
      collectLimit: 0,
      consecutiveFailures: 1,
      consecutiveSuccessWithoutTaskComplete: 4,
    };
    expect(newTaskRecord(T, given, NOW)).toMatchObject(given);
  });

  it('never lets a field of the input override version or the times', () => {
    const sneaky = { ...ask, version: 7, createdAt: EARLIER } as typeof ask;
    expect(newTaskRecord(T, sneaky, NOW)).toMatchObject({ version: 1, createdAt: NOW });
  });

  it('gives each task its own mutable defaults', () => {
    const a = newTaskRecord(T, ask, NOW);
    const b = newTaskRecord(T, ask, NOW);
    expect(b.corrections).not.toBe(a.corrections);
    a.metrics.totalSteps = 9;
    expect(b.metrics).toEqual(emptyTaskMetrics());
    expect(b.id).not.toBe(a.id);
  });
});

describe('newTaskActionRecord', () => {
  const step: NewTaskAction = {
    taskId: 'task-1',
    stepIndex: 0,
    thought: 't',
    action: 'click(1)',
    status: 'pending',
    expectedOutcome: null,
    beforeState: null,
    verification: null,
    metrics: null,
  };

  it('stamps now and a fresh id unless given', () => {
    const action = newTaskActionRecord(T, step, NOW);
    expect(action).toEqual({
      ...step,
      id: expect.stringMatching(UUID),
      tenantId: T,
      createdAt: NOW,
    });
    expect(newTaskActionRecord(T, { ...step, id: 'a1' }, NOW).id).toBe('a1');
  });

  it('stores null, never undefined, for parts a plain-JS caller left out', () => {
    const bare = { taskId: 'task-1', stepIndex: 0, thought: 't', action: 'a', status: 'pending' };
    const action = newTaskActionRecord(T, bare as NewTaskAction, NOW);
    expect(action).toMatchObject({
      expectedOutcome: null,
      beforeState: null,
      verification: null,
      metrics: null,
    });
  });

  it('keeps given parts and time, the time normalised to UTC', () => {
    const given = {
      ...step,
      status: 'success' as const,
      beforeState: { url: 'https://a.example/', domHash: 'h' },
      metrics: { durationMs: 5, inputTokens: 1, outputTokens: 2 },
      createdAt: '2025-01-01T02:00:00+02:00',
    };
    expect(newTaskActionRecord(T, given, NOW)).toMatchObject({ ...given, createdAt: EARLIER });
  });

  it('rejects a time that is not one', () => {
    expect(() => newTaskActionRecord(T, { ...step, createdAt: 'soon' }, NOW)).toThrow(
      'Invalid timestamp: soon',
    );
  });
});

describe('newSkillRecord / newExtractionStrategyRecord', () => {
  const failedState = { action: 'click(1)', elementDescription: 'Buy', errorType: 'hidden' };
  const successfulAction = { action: 'click(2)', elementDescription: 'Buy', strategy: 'scroll' };

  it('starts a skill at one success, used now', () => {
    const skill = newSkillRecord(
      T,
      { domain: 'a.example', goal: 'buy', failedState, successfulAction },
      NOW,
    );
    expect(skill).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      domain: 'a.example',
      goal: 'buy',
      failedState,
      successfulAction,
      successCount: 1,
      failureCount: 0,
      lastUsed: NOW,
      createdAt: NOW,
    });
  });

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

describe('newExtractionRecord / newExtractionResultRecord / newCollectedItemRecord', () => {
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

  it('gives a collected item no source unless given, and leaves seq to the store', () => {
    const input = { taskId: 'task-1', type: 'job', uniqueKey: 'jobId:1', data: { title: 'Dev' } };
    const item = newCollectedItemRecord(T, input, NOW);
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...input,
      sourceUrl: null,
      createdAt: NOW,
    });
    expect(item).not.toHaveProperty('seq');
    const given = { ...input, id: 'i1', sourceUrl: 'https://a.example/jobs' };
    expect(newCollectedItemRecord(T, given, NOW)).toMatchObject(given);
  });
});

describe('newIdempotencyRecord', () => {
  it('claims a key in progress, with no response, until now + ttl', () => {
    const claim = { key: 'k1', scope: 'interact', requestHash: 'h', ttlMs: 60_000 };
    expect(newIdempotencyRecord(T, claim, NOW)).toEqual({
      tenantId: T,
      key: 'k1',
      scope: 'interact',
      requestHash: 'h',
      status: 'in_progress',
      response: null,
      createdAt: NOW,
      expiresAt: '2025-03-04T05:07:07.089Z',
    });
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

describe('newQueuedJobRecord', () => {
  const input = {
    id: 'crawl-1',
    queue: 'knowledge-crawl',
    tenantId: T,
    data: { url: 'https://docs.example/' },
    maxAttempts: 3,
    backoffMs: 5_000,
  };

  it('queues a job waiting, untried and unowned, due now', () => {
    expect(newQueuedJobRecord(input, NOW)).toEqual({
      ...input,
      status: 'waiting',
      attempts: 0,
      runAt: NOW,
      owner: null,
      leaseExpiresAt: null,
      error: null,
      createdAt: NOW,
      updatedAt: NOW,
      finishedAt: null,
    });
  });

  it('keeps a given runAt, normalised to UTC, and rejects one that is no time', () => {
    expect(newQueuedJobRecord({ ...input, runAt: '2025-03-04T07:00:00+02:00' }, NOW).runAt).toBe(
      '2025-03-04T05:00:00.000Z',
    );
    expect(() => newQueuedJobRecord({ ...input, runAt: 'soon' }, NOW)).toThrow(/timestamp/);
  });
});
