// Why the server could not start, told to the person starting it: printed once by the
// instrumentation hook before the process exits, instead of a stack trace in the log and a 500
// on every request. Nothing here prints a secret: MONGODB_URI's credentials are cut out of the
// driver's message, and EnvError never contains a secret's value.
import path from 'node:path';
import { EnvError, type Env } from '../env';

type StoreConfig = Pick<Env, 'MONGODB_URI' | 'DATA_DIR'>;

/** The store named by the configuration could not be opened (or its migrations failed). */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
  readonly store: 'mongodb' | 'libsql';
  readonly dataDir: string;

  constructor(config: StoreConfig, cause: unknown) {
    const store = config.MONGODB_URI ? 'mongodb' : 'libsql';
    super(redact(causeMessage(cause), config.MONGODB_URI));
    this.store = store;
    this.dataDir = config.DATA_DIR;
  }
}

function causeMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  const text = cause.message.trim() || cause.name;
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

/** Cuts the URI and any credentials in it out of a message. */
export function redact(message: string, uri: string | undefined): string {
  if (!uri) return message;
  const secrets = [uri];
  const userinfo = /^[a-z+]+:\/\/([^@/]+)@/i.exec(uri)?.[1];
  if (userinfo) {
    const password = userinfo.split(':').slice(1).join(':');
    for (const raw of [userinfo, password].filter(Boolean)) {
      secrets.push(raw);
      try {
        secrets.push(decodeURIComponent(raw));
      } catch {
        // not percent-encoded: the raw form is already listed
      }
    }
  }
  let out = message;
  // Longest first, so the whole URI goes before the parts it contains.
  for (const secret of secrets.sort((a, b) => b.length - a.length)) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

function storeFailure(error: StoreOpenError): string {
  const [what, fix] =
    error.store === 'mongodb'
      ? [
          'MongoDB (MONGODB_URI)',
          'check MONGODB_URI (mongodb://user:password@host:27017/tandem or mongodb+srv://...) and ' +
            'that the server is reachable from here, or leave MONGODB_URI empty to use the ' +
            'embedded libSQL store',
        ]
      : [
          `embedded libSQL at ${path.join(error.dataDir, 'tandem.db')} (DATA_DIR)`,
          'set DATA_DIR to a directory this user can create and write (empty means ' +
            '<repository>/.data), or set MONGODB_URI to use MongoDB',
        ];
  return [
    'Tandem cannot start: the store could not be opened.',
    '',
    `  store:  ${what}`,
    `  reason: ${error.message}`,
    `  fix:    ${fix}.`,
    '',
    '.env.example at the repository root documents every variable.',
  ].join('\n');
}

/** The message for a failed start; secrets never appear in it. */
export function describeStartupFailure(error: unknown, config?: Pick<Env, 'MONGODB_URI'>): string {
  if (error instanceof EnvError) return error.message;
  if (error instanceof StoreOpenError) return storeFailure(error);
  return `Tandem cannot start: ${redact(causeMessage(error), config?.MONGODB_URI)}`;
}
