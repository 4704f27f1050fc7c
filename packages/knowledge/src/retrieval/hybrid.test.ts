import type { KnowledgeChunk } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { hostMatchesDomain, isHostAllowed, pageDomains, readableDomains } from './domains';
import { FRESH_PHASE_BOOST, fuse, lexicalQuery, RRF_K } from './hybrid';

const chunk = (id: string, extra: Partial<KnowledgeChunk> = {}): KnowledgeChunk => ({
  id,
  tenantId: 't',
  documentId: 'd',
  domain: '',
  ordinal: 0,
  content: id,
  headingPath: [],
  tokenCount: 1,
  embedding: null,
  phase: null,
  triggerAction: null,
  supersededBy: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});
const now = new Date('2026-11-25T00:00:00.000Z');

describe('fuse (reciprocal-rank fusion)', () => {
  it('ranks a chunk both retrievers return above chunks only one returns', () => {
    const lexical = [chunk('a'), chunk('both')].map((c) => ({ chunk: c, score: 1 }));
    const vector = [chunk('v'), chunk('both')].map((c) => ({ chunk: c, score: 1 }));
    const fused = fuse(lexical, vector, now);
    expect(fused[0]).toMatchObject({ lexicalRank: 2, vectorRank: 2 });
    expect(fused[0]?.chunk.id).toBe('both');
    expect(fused[0]?.score).toBeCloseTo(2 / (RRF_K + 2));
    expect(
      fused
        .map((f) => f.chunk.id)
        .slice(1)
        .sort(),
    ).toEqual(['a', 'v']);
  });

  it('prefers post-interaction knowledge and down-ranks stale chunks', () => {
    const stale = chunk('stale', { createdAt: '2025-01-01T00:00:00.000Z' });
    const initial = chunk('initial', { phase: 'initial' });
    const fresh = chunk('fresh', { phase: 'post-interaction' });
    const fused = fuse(
      [stale, initial, fresh].map((c) => ({ chunk: c, score: 1 })),
      [],
      now,
    );
    expect(fused.map((f) => f.chunk.id)).toEqual(['fresh', 'initial', 'stale']);
    expect(fused[0]?.score).toBeCloseTo((1 / (RRF_K + 3)) * FRESH_PHASE_BOOST);
  });
});

describe('domains', () => {
  it('reads the host, its parents, www and tenant-wide knowledge', () => {
    expect(pageDomains('https://app.example.com/x').sort()).toEqual(
      ['', 'app.example.com', 'example.com', 'www.app.example.com'].sort(),
    );
    expect(pageDomains('not a url')).toEqual(['']);
  });

  it('applies allowed_domains: an allowed domain covers its subdomains, others read tenant-wide only', () => {
    expect(hostMatchesDomain('docs.example.com', 'example.com')).toBe(true);
    expect(hostMatchesDomain('example.com', 'docs.example.com')).toBe(false);
    expect(hostMatchesDomain('www.example.com', 'example.com')).toBe(true);
    expect(hostMatchesDomain('badexample.com', 'example.com')).toBe(false);
    expect(isHostAllowed('anything.org', [])).toBe(true);
    expect(readableDomains('https://other.org/', ['example.com'])).toEqual(['']);
    expect(readableDomains('https://app.example.com/', ['example.com'])).toContain(
      'app.example.com',
    );
  });
});

describe('lexicalQuery', () => {
  it('leaves out words that match every chunk, unless nothing else is left', () => {
    expect(lexicalQuery('How do I register the new patient with our clinic code?')).toBe(
      'register new patient clinic code',
    );
    expect(lexicalQuery('what is it')).toBe('what is it');
  });
});
