// The send decisions of page learning, without a tab or a server: which phase for which sight
// of a page, and when a capture is skipped (unchanged content, over the contract's limit).
import { KNOWLEDGE_LIMITS } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { contentHash, learnPhase, LEARN_CAPTURE, newRunMemory, skipReason } from './page-learning';

const URL_A = 'https://app.example/patients';

describe('learnPhase', () => {
  it('sends initial content the first time the run sees a URL, whatever brought it there', () => {
    const memory = newRunMemory('run-1');
    expect(learnPhase(memory, URL_A)).toBe('initial');
    // An action that led to a page the run never saw: still its first sight.
    expect(learnPhase(memory, URL_A, 'click("4")')).toBe('initial');
  });

  it('sends post-interaction content for a seen page only after an action changed it', () => {
    const memory = newRunMemory('run-1');
    memory.initial.add(URL_A);
    expect(learnPhase(memory, URL_A)).toBeNull();
    expect(learnPhase(memory, URL_A, 'click("68")')).toBe('post-interaction');
    expect(learnPhase(memory, `${URL_A}?tab=2`)).toBe('initial');
  });
});

describe('skipReason', () => {
  it('skips content unchanged since the last send for that URL, not for another URL', async () => {
    const memory = newRunMemory('run-1');
    const hash = await contentHash('<p>Status: Pending</p>');
    expect(skipReason(memory, URL_A, { hash, bytes: 100 })).toBeNull();
    memory.sent.set(URL_A, hash);
    expect(skipReason(memory, URL_A, { hash, bytes: 100 })).toBe('unchanged since the last send');
    expect(skipReason(memory, `${URL_A}/2`, { hash, bytes: 100 })).toBeNull();
    const changed = await contentHash('<p>Status: Approved</p>');
    expect(skipReason(memory, URL_A, { hash: changed, bytes: 100 })).toBeNull();
  });

  it("skips content over the contract's byte limit", () => {
    const memory = newRunMemory('run-1');
    const limit = KNOWLEDGE_LIMITS.pageContentBytes;
    expect(skipReason(memory, URL_A, { hash: 'h', bytes: limit })).toBeNull();
    expect(skipReason(memory, URL_A, { hash: 'h', bytes: limit + 1 })).toMatch(/over the/);
  });
});

describe('contentHash and captures', () => {
  it('hashes with SHA-256 as hex', async () => {
    expect(await contentHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('keeps hidden content in the initial capture only', () => {
    expect(LEARN_CAPTURE.initial).toEqual({ mode: 'content', format: 'html', includeHidden: true });
    expect(LEARN_CAPTURE['post-interaction'].includeHidden).toBeUndefined();
  });
});
