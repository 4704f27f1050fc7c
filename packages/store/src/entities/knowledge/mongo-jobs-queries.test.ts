// The knowledge jobs repository's query documents, evaluated by mingo on stored-shape jobs.
import { describe, expect, it } from 'vitest';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import { jobsQuery, jobUpdate, unfinishedJobsQuery } from './mongo-jobs-queries';
import type { KnowledgeJobDoc } from './mongo-schema';

const at = (iso: string) => new Date(iso);

describe('crawl jobs', () => {
  const job = (
    id: string,
    status: KnowledgeJobDoc['status'],
    createdAt: string,
    tenantId = 't1',
  ): KnowledgeJobDoc => ({
    id,
    tenantId,
    userId: null,
    kind: 'crawl',
    url: 'https://docs.example/',
    strategy: 'sitemap',
    maxPages: 10,
    maxDepth: 2,
    domain: 'docs.example',
    status,
    progress: null,
    frontier: [],
    visited: [],
    pageErrors: [],
    error: null,
    createdAt: at(createdAt),
    updatedAt: at(createdAt),
    startedAt: null,
    finishedAt: null,
  });
  const jobs = new MingoCollection([
    job('j1', 'completed', '2025-01-01T00:00:00Z'),
    job('j2', 'running', '2025-01-02T00:00:00Z'),
    job('j3', 'queued', '2025-01-03T00:00:00Z', 't2'),
  ]);

  it('lists newest first by status; resumes unfinished jobs of every tenant oldest first; patches', () => {
    expect(jobs.find(jobsQuery('t1', undefined, 10)).map((j) => j.id)).toEqual(['j2', 'j1']);
    expect(jobs.find(jobsQuery('t1', ['completed'], 10)).map((j) => j.id)).toEqual(['j1']);
    expect(jobs.find(unfinishedJobsQuery()).map((j) => j.id)).toEqual(['j2', 'j3']);
    const now = at('2025-02-01T00:00:00Z');
    const updated = jobs.findOneAndUpdate(
      jobUpdate(
        't1',
        'j2',
        {
          status: 'failed',
          errors: [{ url: 'u', message: 'e', at: now.toISOString() }],
          finishedAt: now.toISOString(),
        },
        now,
      ),
    );
    expect(updated).toMatchObject({
      status: 'failed',
      pageErrors: [{ url: 'u', message: 'e', at: now.toISOString() }],
      finishedAt: now,
    });
  });
});
