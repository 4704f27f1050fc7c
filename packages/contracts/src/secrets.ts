// Secrets the server never sees (OWASP LLM02, sensitive information disclosure): the user keeps
// them in the extension, the model only ever reads and writes a placeholder such as
// {{secret:clinic_password}}, and the extension puts the value in at execution time, in the
// page, on the secret's own sites only. The server learns the names and sites (so the model
// knows what it may type and where), never a value.
import { z } from 'zod';
import { Site } from './site-policy';

export const SECRET_NAME_MAX_LENGTH = 64;
/** Lower-case letters, digits and "_", starting with a letter: safe inside any action text. */
export const SECRET_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export const SecretName = z
  .string()
  .regex(SECRET_NAME_PATTERN, {
    error: 'a secret name is lower-case letters, digits and "_", starting with a letter',
  })
  .meta({ description: 'The name a secret is typed by: {{secret:<name>}}.' });
export type SecretName = z.infer<typeof SecretName>;

export const SECRETS_MAX = 50;
export const SECRET_SITES_MAX = 10;

/** What the server may know of a stored secret: its name and where it may be typed. */
export const SecretRef = z.object({
  name: SecretName,
  sites: z.array(Site).min(1).max(SECRET_SITES_MAX),
});
export type SecretRef = z.infer<typeof SecretRef>;

export const secretPlaceholder = (name: string): string => `{{secret:${name}}}`;

const PLACEHOLDER = /\{\{secret:([a-z][a-z0-9_]{0,63})\}\}/g;

/** The secret names a text refers to, in order, each once. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(PLACEHOLDER), (m) => m[1] ?? ''))];
}

/** `text` with each placeholder replaced by `valueOf(name)`; an unknown name stays as written. */
export function fillPlaceholders(
  text: string,
  valueOf: (name: string) => string | undefined,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => valueOf(name) ?? whole);
}

/** The rule prompts carry when the user stored secrets: names and sites, never values. */
export function secretsPromptLine(secrets: readonly SecretRef[]): string {
  if (secrets.length === 0) return '';
  const list = secrets
    .map((s) => `${secretPlaceholder(s.name)} (only on ${s.sites.join(', ')})`)
    .join('; ');
  return (
    `The user stored secrets you can type without knowing them: write the placeholder exactly, ` +
    `e.g. setValue(id, "${secretPlaceholder(secrets[0]?.name ?? 'name')}"); the browser fills ` +
    `in the value on the listed sites only. Secrets: ${list}. Never ask for a secret's value ` +
    'and never put a placeholder anywhere but into a field of its own site.'
  );
}
