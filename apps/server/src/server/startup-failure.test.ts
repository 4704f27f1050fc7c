// The message a failed start prints: which store, why, how to fix it, and no credentials.
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../env';
import { describeStartupFailure, redact, StoreOpenError } from './startup-failure';

const libsql = { MONGODB_URI: undefined, DATA_DIR: '/srv/tandem/data' };
const mongoUri = 'mongodb://admin:p%40ss%3Aword@db.internal:27017/tandem';

describe('describeStartupFailure', () => {
  it('names the libSQL file, the reason with its code, and DATA_DIR as the fix', () => {
    const cause = Object.assign(new Error("permission denied, mkdir '/srv/tandem/data'"), {
      code: 'EACCES',
    });
    const text = describeStartupFailure(new StoreOpenError(libsql, cause));
    expect(text).toBe(
      [
        'Tandem cannot start: the store could not be opened.',
        '',
        '  store:  embedded libSQL at /srv/tandem/data/tandem.db (DATA_DIR)',
        "  reason: EACCES: permission denied, mkdir '/srv/tandem/data'",
        '  fix:    set DATA_DIR to a directory this user can create and write (empty means ' +
          '<repository>/.data), or set MONGODB_URI to use MongoDB.',
        '',
        '.env.example at the repository root documents every variable.',
      ].join('\n'),
    );
  });

  it('names MongoDB without printing the URI or its credentials', () => {
    const cause = new Error(
      `getaddrinfo ENOTFOUND db.internal for ${mongoUri} (user admin:p@ss:word)`,
    );
    const text = describeStartupFailure(
      new StoreOpenError({ MONGODB_URI: mongoUri, DATA_DIR: '/unused' }, cause),
    );
    expect(text).toContain('  store:  MongoDB (MONGODB_URI)');
    expect(text).toContain('  reason: getaddrinfo ENOTFOUND db.internal for *** (user ***)');
    expect(text).toMatch(/fix: {4}check MONGODB_URI/);
    expect(text).not.toMatch(/p%40ss|p@ss|ss:word|mongodb:\/\/admin/);
  });

  it('prints an invalid environment exactly as EnvError words it', () => {
    let error: unknown;
    try {
      parseEnv({ TANDEM_DEV_API_KEY: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect(describeStartupFailure(error)).toBe((error as EnvError).message);
  });

  it('says what failed for anything else, credentials cut out', () => {
    expect(
      describeStartupFailure(new Error(`auth failed for ${mongoUri}`), { MONGODB_URI: mongoUri }),
    ).toBe('Tandem cannot start: auth failed for ***');
    expect(describeStartupFailure('boom')).toBe('Tandem cannot start: boom');
  });
});

describe('redact', () => {
  it('leaves a message alone without a URI, and a URI without credentials is still cut', () => {
    expect(redact('nothing to hide', undefined)).toBe('nothing to hide');
    expect(redact('bad mongodb://db:1/x here', 'mongodb://db:1/x')).toBe('bad *** here');
  });
});
