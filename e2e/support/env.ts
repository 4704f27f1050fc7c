// The e2e stack's coordinates, set by global-setup.ts and read by the tests (the one place
// e2e code touches process.env).
export const E2E_ENV_KEYS = {
  server: 'TANDEM_E2E_SERVER',
  apiKey: 'TANDEM_E2E_API_KEY',
  demo: 'TANDEM_E2E_DEMO',
  gemini: 'TANDEM_E2E_GEMINI',
  dataDir: 'TANDEM_E2E_DATA_DIR',
} as const;

export interface E2eEnv {
  server: string;
  apiKey: string;
  demo: string;
  gemini: string;
  /** The server's DATA_DIR (its libSQL file), for tests that use the admin CLI on it. */
  dataDir: string;
}

export function e2eEnv(): E2eEnv {
  const read = (key: string) => {
    const value = process.env[key];
    if (!value)
      throw new Error(
        `${key} is not set: run the e2e suite through playwright (global-setup starts the stack).`,
      );
    return value;
  };
  return {
    server: read(E2E_ENV_KEYS.server),
    apiKey: read(E2E_ENV_KEYS.apiKey),
    demo: read(E2E_ENV_KEYS.demo),
    gemini: read(E2E_ENV_KEYS.gemini),
    dataDir: read(E2E_ENV_KEYS.dataDir),
  };
}

export function exportE2eEnv(env: E2eEnv): void {
  process.env[E2E_ENV_KEYS.server] = env.server;
  process.env[E2E_ENV_KEYS.apiKey] = env.apiKey;
  process.env[E2E_ENV_KEYS.demo] = env.demo;
  process.env[E2E_ENV_KEYS.gemini] = env.gemini;
  process.env[E2E_ENV_KEYS.dataDir] = env.dataDir;
}

/** The environment for the spawned server process. */
export const inheritedEnv = (): NodeJS.ProcessEnv => ({ ...process.env });
