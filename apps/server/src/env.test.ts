import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('parseEnv', () => {
  it('starts with no configuration: libSQL under <repo>/.data, port 3000, 10 interact req/min', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.RATE_LIMIT_INTERACT_PER_MIN).toBe(10);
    expect(path.basename(env.DATA_DIR)).toBe('.data');
    expect(path.isAbsolute(env.DATA_DIR)).toBe(true);
  });

  it('treats empty strings as unset (a copied .env.example works as is)', () => {
    const env = parseEnv({ MONGODB_URI: '', TANDEM_DEV_API_KEY: '  ', PORT: '' });
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.TANDEM_DEV_API_KEY).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  it('rejects bad values with every offending variable named', () => {
    expect(() => parseEnv({ MONGODB_URI: 'postgres://x', PORT: 'abc' })).toThrow(EnvError);
    try {
      parseEnv({ MONGODB_URI: 'postgres://x', PORT: 'abc' });
    } catch (error) {
      expect(String(error)).toMatch(/MONGODB_URI: must start with mongodb/);
      expect(String(error)).toMatch(/PORT/);
    }
  });
});
