import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args';

describe('parseCliArgs', () => {
  it('defaults to 127.0.0.1:4000', () => {
    expect(parseCliArgs([])).toEqual({ port: 4000, host: '127.0.0.1', help: false });
  });

  it('reads --port, -p and --host, and tolerates a leading "--" from pnpm', () => {
    expect(parseCliArgs(['--port', '4100']).port).toBe(4100);
    expect(parseCliArgs(['-p', '0']).port).toBe(0);
    expect(parseCliArgs(['--', '--port=4200', '--host', '::1'])).toEqual({
      port: 4200,
      host: '::1',
      help: false,
    });
  });

  it('refuses bad ports and unknown flags', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--port', '-1'])).toThrow();
    expect(() => parseCliArgs(['--verbose'])).toThrow();
  });
});
