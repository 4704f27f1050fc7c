// The one place bench/hostile reads the environment. The server under attack runs with every
// default (`npm start` as shipped), so it gets only what a process needs to run and
// what the suite must set: its data dir and key (from the harness) and the scripted model. No
// variable of this shell reaches it: a RATE_LIMIT_* or *_PER_TENANT exported here would
// otherwise change the defaults being measured.
const PROCESS_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ'] as const;

/** The server's environment: the process basics, the harness' own variables, the model. */
export function hostileServerEnv(
  own: Record<string, string>,
  model: { url: string },
): Record<string, string> {
  const basics: Record<string, string> = {};
  for (const name of PROCESS_VARIABLES) {
    const value = process.env[name];
    if (value) basics[name] = value;
  }
  // The harness' quieter LOG_LEVEL is not a default either.
  const { LOG_LEVEL: _quiet, ...rest } = own;
  return {
    ...basics,
    ...rest,
    GEMINI_API_KEY: 'hostile-scripted-model',
    GEMINI_BASE_URL: model.url,
  };
}
