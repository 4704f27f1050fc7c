import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

/** The EnvError parseEnv throws for `source`. */
function envError(source: Record<string, string>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('parseEnv accepted an invalid environment');
}

describe('parseEnv', () => {
  it('starts with no configuration: libSQL under <repo>/.data, port 3000, 300 interact req/min', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.RATE_LIMIT_INTERACT_PER_MIN).toBe(300);
    expect(env.RATE_LIMIT_DEFAULT_PER_MIN).toBe(120);
    expect(path.basename(env.DATA_DIR)).toBe('.data');
    expect(path.isAbsolute(env.DATA_DIR)).toBe(true);
  });

  it('treats empty strings as unset (a copied .env.example works as is)', () => {
    const env = parseEnv({
      MONGODB_URI: '',
      TANDEM_DEV_API_KEY: '  ',
      PORT: '',
      NODE_ENV: '',
      LOG_LEVEL: '',
    });
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.TANDEM_DEV_API_KEY).toBeUndefined();
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe('development');
    expect(env.LOG_LEVEL).toBe('info');
  });

  it('accepts an OpenAI-compatible endpoint with its model, or with Gemini winning', () => {
    expect(parseEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'm' }).LLM_MODEL).toBe(
      'm',
    );
    expect(
      parseEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', GEMINI_API_KEY: 'k' }).GEMINI_API_KEY,
    ).toBe('k');
  });

  it('LLM_VISION: auto unless said, and only auto, true or false', () => {
    expect(parseEnv({}).LLM_VISION).toBe('auto');
    expect(parseEnv({ LLM_VISION: 'false' }).LLM_VISION).toBe('false');
    expect(() => parseEnv({ LLM_VISION: 'yes' })).toThrow(/LLM_VISION.*auto, true, false/s);
  });
});

describe('EnvError: the message a failed start prints', () => {
  it('lists every offending variable once, in .env.example order, each with its rule and a fix', () => {
    const error = envError({
      PORT: 'abc',
      MONGODB_URI: 'postgres://x',
      LOG_LEVEL: 'loud',
      RATE_LIMIT_INTERACT_PER_MIN: '-5',
      LLM_MAX_RETRIES: '11',
      TANDEM_DEV_API_KEY: 'too-short',
    });
    expect(error.issues.map((i) => i.variable)).toEqual([
      'PORT',
      'MONGODB_URI',
      'TANDEM_DEV_API_KEY',
      'RATE_LIMIT_INTERACT_PER_MIN',
      'LOG_LEVEL',
      'LLM_MAX_RETRIES',
    ]);
    expect(error.message).toMatch(/^Tandem cannot start: 6 environment variables are invalid\./);
    expect(error.message).toContain(
      '  PORT: must be a whole number greater than 0 (got "abc")\n' +
        '    fix: correct it, or leave it empty for the default (3000).',
    );
    expect(error.message).toContain(
      '  MONGODB_URI: must start with mongodb:// or mongodb+srv:// (value not shown)\n' +
        '    fix: use mongodb://host:27017/tandem',
    );
    expect(error.message).toContain(
      '  TANDEM_DEV_API_KEY: must be at least 20 characters (value not shown)\n' +
        '    fix: use 20 or more random characters',
    );
    expect(error.message).toContain(
      '  RATE_LIMIT_INTERACT_PER_MIN: must be a whole number greater than 0 (got "-5")\n' +
        '    fix: correct it, or leave it empty for the default (300).',
    );
    expect(error.message).toContain(
      '  LOG_LEVEL: must be one of debug, info, warn, error, silent (got "loud")',
    );
    expect(error.message).toContain('  LLM_MAX_RETRIES: must be a whole number from 0 to 10');
    // Where to fix it and where every variable is described.
    expect(error.message).toMatch(/apps\/server\/\.env\.local/);
    expect(error.message).toMatch(/\.env\.example at the repository root/);
  });

  it('names a single variable in the singular', () => {
    expect(envError({ TANDEM_DEV_API_KEY: 'short' }).message).toMatch(
      /^Tandem cannot start: 1 environment variable is invalid\.\n\n {2}TANDEM_DEV_API_KEY: /,
    );
  });

  it('reports a rule across variables together with the others', () => {
    const error = envError({ PORT: '0', LLM_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(error.issues.map((i) => i.variable)).toEqual(['PORT', 'LLM_MODEL']);
    expect(error.message).toContain('  LLM_MODEL: must be set when LLM_BASE_URL is set');
    expect(error.message).toContain('or unset LLM_BASE_URL');
  });

  it('never prints the value of a variable that can hold a secret', () => {
    const secrets = {
      TANDEM_DEV_API_KEY: 'tdm_SECRET_1',
      MONGODB_URI: 'postgres://admin:SECRET_2@db.internal/tandem',
      SENTRY_DSN: 'SECRET_3-not-a-url',
      LANGFUSE_BASE_URL: 'SECRET_4 not a url',
      GEMINI_BASE_URL: 'ftp://user:SECRET_5@proxy',
      LLM_BASE_URL: 'SECRET_6',
      LLM_MODEL: 'm', // valid: only the URL is wrong
      TAVILY_BASE_URL: 'SECRET_7',
    };
    const error = envError(secrets);
    expect(error.issues.map((i) => i.variable).sort()).toEqual(
      Object.keys(secrets)
        .filter((name) => name !== 'LLM_MODEL')
        .sort(),
    );
    expect(error.message).not.toMatch(/SECRET|admin|db\.internal|proxy/);
    for (const issue of error.issues) expect(issue.problem).toMatch(/\(value not shown\)$/);
  });

  it('shortens a long value it may show', () => {
    const error = envError({ MAX_BODY_BYTES: 'x'.repeat(500) });
    expect(error.message).toContain(`(got "${'x'.repeat(40)}...")`);
  });
});
