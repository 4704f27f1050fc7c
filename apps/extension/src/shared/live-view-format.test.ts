import { describe, expect, it } from 'vitest';
import {
  collectedLine,
  elapsedMs,
  extractionLine,
  formatCost,
  formatDuration,
  metaLine,
  mergeCounts,
  routineFallbackLine,
  routineLine,
  savedDate,
  secondsLeft,
  statusLine,
  stillStopping,
  tabFromQuery,
  waitText,
} from './live-view-format';
import type { RunState } from './run-state';

const NOW = 1_700_000_000_000;
const run = (patch: Partial<RunState> = {}): RunState => ({
  tabId: 3,
  goal: 'Add a new patient named Jas Patel',
  status: 'running',
  steps: [],
  updatedAt: NOW,
  ...patch,
});
const view = (patch: Partial<{ stopping: boolean; now: number }> = {}) => ({
  now: NOW,
  stopping: false,
  empty: 'Type a goal and press Start.',
  ...patch,
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [45_000, '45s'],
    [59_999, '59s'],
    [60_000, '1m 00s'],
    [65_000, '1m 05s'],
    [3_599_000, '59m 59s'],
    [3_600_000, '1h 00m'],
    [2 * 3_600_000 + 3 * 60_000 + 59_000, '2h 03m'],
    [-5_000, '0s'],
  ])('%i ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('formatCost', () => {
  it.each([
    [0, '$0.00'],
    [42, '<$0.0001'],
    [100, '$0.0001'],
    [4_249, '$0.0042'],
    [9_949, '$0.0099'],
    [9_999, '$0.01'],
    [10_000, '$0.01'],
    [123_456, '$0.12'],
    [12_345_678, '$12.35'],
  ])('%i µ$ → %s', (micro, text) => expect(formatCost(micro)).toBe(text));
});

describe('countdown', () => {
  it('rounds the seconds left up and never goes below zero', () => {
    expect(secondsLeft(NOW + 12_001, NOW)).toBe(13);
    expect(secondsLeft(NOW + 12_000, NOW)).toBe(12);
    expect(secondsLeft(NOW + 1, NOW)).toBe(1);
    expect(secondsLeft(NOW, NOW)).toBe(0);
    expect(secondsLeft(NOW - 5_000, NOW)).toBe(0);
  });

  it('counts down as the clock moves, then says it retries', () => {
    const wait = { reason: 'rate_limit' as const, until: NOW + 30_000, attempt: 1 };
    expect(waitText(wait, NOW)).toBe('Waiting 30s (rate limit)');
    expect(waitText(wait, NOW + 1_000)).toBe('Waiting 29s (rate limit)');
    expect(waitText(wait, NOW + 29_500)).toBe('Waiting 1s (rate limit)');
    expect(waitText(wait, NOW + 30_000)).toBe('Retrying…');
  });

  it('names the reason of each wait, with the attempt of a repeated server outage', () => {
    const until = NOW + 8_000;
    expect(waitText({ reason: 'server_unavailable', until, attempt: 1 }, NOW)).toBe(
      'Server unreachable, retrying in 8s',
    );
    expect(waitText({ reason: 'server_unavailable', until, attempt: 3 }, NOW)).toBe(
      'Server unreachable, retrying in 8s (attempt 3)',
    );
    expect(waitText({ reason: 'busy', until, attempt: 2 }, NOW)).toBe(
      'Server still busy with this task, retrying in 8s',
    );
  });
});

describe('statusLine', () => {
  it.each([
    ['running', 'Working…', 'busy'],
    ['needs_input', 'Waiting for your answer', 'ask'],
    ['stopped', 'Stopped.', 'idle'],
    ['completed', 'Done.', 'ok'],
    ['failed', 'The task failed.', 'bad'],
    ['error', 'Something went wrong.', 'bad'],
  ] as const)('%s → %s', (status, text, tone) => {
    expect(statusLine(run({ status }), view())).toEqual({ text, tone });
  });

  it('says what to do when the tab has no run', () => {
    expect(statusLine(null, view())).toEqual({
      text: 'Type a goal and press Start.',
      tone: 'idle',
    });
  });

  it('shows the wait with its countdown while the loop waits', () => {
    const waiting = run({ wait: { reason: 'rate_limit', until: NOW + 37_000, attempt: 1 } });
    expect(statusLine(waiting, view())).toEqual({ text: 'Waiting 37s (rate limit)', tone: 'wait' });
    expect(statusLine(waiting, view({ now: NOW + 10_000 })).text).toBe('Waiting 27s (rate limit)');
  });

  it('says Stopping… after Stop was pressed until the run can no longer act', () => {
    const waiting = run({ wait: { reason: 'rate_limit', until: NOW + 5_000, attempt: 1 } });
    expect(statusLine(run(), view({ stopping: true })).text).toBe('Stopping…');
    expect(statusLine(waiting, view({ stopping: true })).text).toBe('Stopping…');
    expect(statusLine(run({ status: 'needs_input' }), view({ stopping: true })).text).toBe(
      'Stopping…',
    );
    expect(statusLine(run({ status: 'stopped' }), view({ stopping: true })).text).toBe('Stopped.');
  });
});

describe('stillStopping', () => {
  const before = run({ startedAt: NOW - 5_000 });
  it('holds while the same run is still active', () => {
    expect(stillStopping(true, before, { ...before, steps: [] })).toBe(true);
    expect(stillStopping(true, before, { ...before, status: 'needs_input' })).toBe(true);
  });
  it('ends when the run stopped (or ended otherwise), or a new run started', () => {
    expect(stillStopping(true, before, { ...before, status: 'stopped' })).toBe(false);
    expect(stillStopping(true, before, { ...before, status: 'completed' })).toBe(false);
    expect(stillStopping(true, before, { ...before, startedAt: NOW })).toBe(false);
    expect(stillStopping(true, before, null)).toBe(false);
    expect(stillStopping(false, before, before)).toBe(false);
  });
});

describe('elapsed time and the meta line', () => {
  it('ticks while running and freezes at the last write once the run ended', () => {
    const started = run({ startedAt: NOW - 65_000, updatedAt: NOW - 5_000 });
    expect(elapsedMs(started, NOW)).toBe(65_000);
    expect(elapsedMs(started, NOW + 1_000)).toBe(66_000);
    expect(elapsedMs({ ...started, status: 'completed' }, NOW + 50_000)).toBe(60_000);
    expect(elapsedMs(run(), NOW)).toBeNull();
  });

  it('lists elapsed time, steps, requests, tokens and cost, leaving out what is unknown', () => {
    const full = run({
      startedAt: NOW - 83_000,
      requests: 7,
      usage: { inputTokens: 12_000, outputTokens: 345, totalTokens: 12_345, costMicroUsd: 4_249 },
      steps: [{ index: 0, thought: 't', status: 'executing', at: NOW }],
    });
    expect(metaLine(full, NOW)).toBe('1m 23s · 1 step · 7 requests · 12,345 tokens · $0.0042');
    expect(metaLine(run({ requests: 1 }), NOW)).toBe('1 request');
    expect(metaLine(run(), NOW)).toBe('');
  });

  it('says a run refused before any answer did nothing, instead of "0s · 0 requests"', () => {
    const refused = run({ status: 'error', startedAt: NOW, requests: 0, error: 'no model' });
    expect(metaLine(refused, NOW)).toBe('Ended before any step: nothing was done on the page.');
    expect(metaLine({ ...refused, status: 'stopped' }, NOW)).toBe(
      'Ended before any step: nothing was done on the page.',
    );
    expect(metaLine({ ...refused, startedAt: undefined }, NOW)).toBe('');
    // Still waiting for the first answer: the clock ticking is the news.
    expect(metaLine({ ...refused, status: 'running' }, NOW + 3_000)).toBe('3s · 0 requests');
    // A refusal after answers keeps its numbers.
    expect(metaLine({ ...refused, requests: 2, updatedAt: NOW + 4_000 }, NOW)).toBe(
      '4s · 2 requests',
    );
  });
});

describe('collectedLine', () => {
  it('counts the items, with the target when there is one', () => {
    expect(collectedLine({ job: 12 })).toBe('Collected 12 items');
    expect(collectedLine({ job: 1 })).toBe('Collected 1 item');
    expect(collectedLine({ job: 12 }, 0, 25)).toBe('Collected 12 of 25 items');
  });

  it('counts skipped duplicates in the same line, never one line each', () => {
    expect(collectedLine({ job: 12 }, 3, 25)).toBe(
      'Collected 12 of 25 items · 3 duplicates skipped',
    );
    expect(collectedLine({ job: 12 }, 1)).toBe('Collected 12 items · 1 duplicate skipped');
    expect(collectedLine({}, 2)).toBe('Collected 0 items · 2 duplicates skipped');
  });

  it('names the types when there are several, largest first', () => {
    expect(collectedLine({ job: 1_200, company: 5 })).toBe(
      'Collected 1,205 items (job: 1,200, company: 5)',
    );
    expect(collectedLine({ company: 5, job: 1_200 })).toBe(
      'Collected 1,205 items (job: 1,200, company: 5)',
    );
    expect(collectedLine({ job: 3, company: 0 })).toBe('Collected 3 items');
  });

  it('is empty before anything was collected or skipped', () => {
    expect(collectedLine({})).toBeNull();
    expect(collectedLine({ job: 0 }, 0)).toBeNull();
  });

  it('takes the larger of the stored and the live count per type', () => {
    expect(mergeCounts({ job: 5, company: 2 }, { job: 7, person: 1 })).toEqual({
      job: 7,
      company: 2,
      person: 1,
    });
    expect(mergeCounts({ job: 9 }, { job: 7 })).toEqual({ job: 9 });
  });
});

describe('extractionLine', () => {
  const line = (items: number | null, pages: number, isPartial = false) =>
    extractionLine({ items, pages, isPartial });

  it('counts the items and the pages they came from', () => {
    expect(line(119, 3)).toBe('Extracted 119 items from 3 pages');
    expect(line(1_250, 12)).toBe('Extracted 1,250 items from 12 pages');
    expect(line(0, 2)).toBe('Extracted 0 items from 2 pages');
  });

  it('says one item and one page in the singular', () => {
    expect(line(1, 1)).toBe('Extracted 1 item from 1 page');
    expect(line(40, 1)).toBe('Extracted 40 items from 1 page');
  });

  it('says "data" when the data is not a list', () => {
    expect(line(null, 1)).toBe('Extracted data from 1 page');
    expect(line(null, 2)).toBe('Extracted data from 2 pages');
  });

  it('says when part of a page failed, so the download misses something', () => {
    expect(line(7, 2, true)).toBe(
      'Extracted 7 items from 2 pages (partial: part of a page failed)',
    );
    expect(line(null, 1, true)).toBe('Extracted data from 1 page (partial: part of a page failed)');
  });

  it('leaves out a page count of zero', () => {
    expect(line(3, 0)).toBe('Extracted 3 items');
  });
});

describe('tabFromQuery', () => {
  it('reads a positive tab id and ignores anything else', () => {
    expect(tabFromQuery('?tab=42')).toBe(42);
    expect(tabFromQuery('?x=1&tab=7')).toBe(7);
    expect(tabFromQuery('')).toBeNull();
    expect(tabFromQuery('?tab=0')).toBeNull();
    expect(tabFromQuery('?tab=-3')).toBeNull();
    expect(tabFromQuery('?tab=4.5')).toBeNull();
    expect(tabFromQuery('?tab=abc')).toBeNull();
  });
});

describe('routine banner words', () => {
  // Midday UTC: the same calendar day in every time zone a test machine may run in.
  const info = {
    routineId: 'r-1',
    name: 'Add patient',
    version: 2,
    savedAt: '2026-11-12T12:00:00.000Z',
    done: 3,
    steps: 5,
    modelCalls: 0,
    healed: [] as number[],
    fellBack: null,
  };

  it('reads a saved date as day and short month, and nothing for an unreadable one', () => {
    expect(savedDate('2026-11-12T12:00:00.000Z')).toBe('12 Nov');
    expect(savedDate('2026-01-05T12:00:00.000Z')).toBe('5 Jan');
    expect(savedDate('not a date')).toBeNull();
  });

  it('names the routine, its date, the model calls and the progress', () => {
    expect(routineLine(info)).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 0 model calls · step 4 of 5',
    );
    expect(routineLine({ ...info, modelCalls: 1 })).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 1 model call · step 4 of 5',
    );
  });

  it('counts the healed steps from 1', () => {
    expect(routineLine({ ...info, modelCalls: 1, healed: [1] })).toBe(
      'Running routine “Add patient” (saved 12 Nov) · 1 model call · step 4 of 5 · healed step 2',
    );
    expect(routineLine({ ...info, modelCalls: 2, healed: [0, 3] })).toMatch(
      / · 2 model calls · step 4 of 5 · healed steps 1, 4$/,
    );
  });

  it('says when every step is done', () => {
    expect(routineLine({ ...info, done: 5 })).toMatch(/ · all 5 steps done$/);
  });

  it('leaves the date out when it cannot be read', () => {
    expect(routineLine({ ...info, savedAt: '' })).toBe(
      'Running routine “Add patient” · 0 model calls · step 4 of 5',
    );
  });

  it('says why the routine stopped and that the agent goes on', () => {
    expect(routineFallbackLine('the page changed')).toBe(
      'Routine stopped: the page changed; the agent continues.',
    );
  });
});
