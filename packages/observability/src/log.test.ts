import { describe, expect, it } from 'vitest';
import { createRateLimitedLog, type LogWriter } from './log';

describe('createRateLimitedLog', () => {
  it('logs a key once per interval and reports how many it held back', () => {
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const log: LogWriter = {
      debug: () => {},
      info: () => {},
      warn: (m, f) => lines.push([m, f]),
      error: (m, f) => lines.push([m, f]),
    };
    let now = 0;
    const report = createRateLimitedLog(log, { intervalMs: 1000, now: () => now });
    for (let i = 0; i < 5; i++) report.report('export', 'warn', 'export failed', { n: i });
    report.report('score', 'warn', 'score failed');
    now = 1500;
    report.report('export', 'warn', 'export failed', { n: 9 });
    expect(lines).toEqual([
      ['export failed', { n: 0 }],
      ['score failed', undefined],
      ['export failed', { n: 9, suppressed: 4 }],
    ]);
  });

  it('survives a logger that throws', () => {
    const throwing: LogWriter = {
      debug: () => {},
      info: () => {},
      warn: () => {
        throw new Error('sink closed');
      },
      error: () => {},
    };
    expect(() => createRateLimitedLog(throwing).report('k', 'warn', 'm')).not.toThrow();
  });
});
