// The one place bench/tasks reads the environment: which model the server under test uses,
// with the same variables the server itself reads (apps/server/src/env.ts). A key is passed
// to the server process and never printed.

/** The model variables: removed from the server's environment before the chosen ones are set. */
const MODEL_VARIABLES = [
  'GEMINI_API_KEY',
  'GEMINI_MODEL',
  'GEMINI_PLANNING_MODEL',
  'GEMINI_BASE_URL',
  'LLM_BASE_URL',
  'LLM_MODEL',
  'LLM_API_KEY',
  'LLM_TIMEOUT_MS',
  'LLM_MAX_RETRIES',
] as const;

type ModelVariable = (typeof MODEL_VARIABLES)[number];

/** The model variables that are set (empty means unset, as the server reads them). */
function modelEnv(): Partial<Record<ModelVariable, string>> {
  const out: Partial<Record<ModelVariable, string>> = {};
  for (const name of MODEL_VARIABLES) {
    const value = process.env[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

export type ModelChoice =
  | { kind: 'scripted'; label: string }
  | { kind: 'real'; label: string; env: Record<string, string> };

/** The real model when a key (Gemini) or an OpenAI-compatible endpoint is configured. */
export function modelChoice(options: { forceScripted: boolean }): ModelChoice {
  const scripted: ModelChoice = { kind: 'scripted', label: 'scripted (fake Gemini on loopback)' };
  if (options.forceScripted) return scripted;
  const parsed = modelEnv();
  const env: Record<string, string> = { ...parsed };
  if (parsed.GEMINI_API_KEY)
    return { kind: 'real', label: `Gemini ${parsed.GEMINI_MODEL ?? 'gemini-2.5-flash'}`, env };
  if (parsed.LLM_BASE_URL && parsed.LLM_MODEL)
    return { kind: 'real', label: `OpenAI-compatible ${parsed.LLM_MODEL}`, env };
  return scripted;
}

/** The server's environment: this process's, with the model variables replaced by `model`. */
export function serverEnv(model: Record<string, string>, own: Record<string, string>) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !(MODEL_VARIABLES as readonly string[]).includes(entry[0]),
    ),
  );
  return { ...inherited, ...own, ...model };
}
