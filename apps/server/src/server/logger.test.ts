import { describe, expect, it } from 'vitest';
import { createLogger, redact } from './logger';

describe('logger', () => {
  it('never writes secrets: API keys, bearer tokens, secret-named fields', () => {
    const lines: string[] = [];
    const log = createLogger('debug', { tenantId: 't1' }, (line) => lines.push(line));
    log.info('auth header was Bearer tdm_abcdefghijklmnopqrstuvwxyz', {
      apiKey: 'tdm_abcdefghijklmnopqrstuvwxyz',
      nested: { password: 'hunter2', note: 'key tdm_abcdefghijklmnopqrstuvwxyz' },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/abcdefghij|hunter2/);
    expect(lines[0]).toContain('tenantId=t1');
  });

  it('binds child fields to every line and honours the level', () => {
    const lines: string[] = [];
    const log = createLogger('info', {}, (line) => lines.push(line)).child({ taskId: 'task-9' });
    log.debug('hidden');
    log.warn('shown', { step: 2 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/WARN shown taskId=task-9 step=2/);
  });

  it('redacts inside arrays and errors', () => {
    const out = redact([new Error('Bearer abc.def'), { token: 'x' }]) as unknown[];
    expect(JSON.stringify(out)).not.toMatch(/abc\.def|"x"/);
  });
});
