// Turning zod schemas into provider JSON Schema, and model text back into validated values.
import { jsonDataProblem, ownData } from '@tandem/contracts';
import { z } from 'zod';

/**
 * The JSON Schema sent to providers. `io: 'input'` because the model's text is what the zod
 * schema *parses*: fields with defaults are optional for the model, not required. Types JSON
 * Schema can't express (transforms, dates…) become `{}` instead of throwing, since the zod parse
 * still checks them. `$schema` is dropped: Gemini's responseJsonSchema rejects unknown keywords.
 * Converted once per schema: the nodes pass the same schema object on every call, and the
 * conversion walks the whole schema (it showed in bench/interact). Providers only serialise it.
 */
const providerSchemas = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

export function toProviderJsonSchema(schema: z.ZodType): Readonly<Record<string, unknown>> {
  const cached = providerSchemas.get(schema);
  if (cached) return cached;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema: _ignored, ...rest } = json;
  providerSchemas.set(schema, rest);
  return rest;
}

/** OpenAI requires `^[a-zA-Z0-9_-]{1,64}$` for json_schema.name; Gemini ignores it. */
export function toSchemaName(name: string | undefined, fallback: string): string {
  const cleaned = (name ?? fallback).replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);
  return cleaned.length > 0 ? cleaned : 'output';
}

export type ParseOutcome<T> =
  { ok: true; value: T; json: unknown } | { ok: false; reason: string; json?: unknown };

/**
 * Extracts the JSON value from model text. JSON mode usually gives bare JSON, but local models
 * (and reasoning models behind OpenAI-compatible servers) still wrap it in ```json fences or
 * prefix <think>…</think>; stripping those here saves a repair round-trip.
 */
export function extractJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  let body = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/.exec(body);
  if (fenced?.[1] !== undefined) body = fenced[1].trim();
  if (body === '') return { ok: false, reason: 'The answer was empty; expected a JSON value.' };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `The answer was not valid JSON (${detail}).` };
  }
}

export function parseStructuredOutput<S extends z.ZodType>(
  text: string,
  schema: S,
): ParseOutcome<z.output<S>> {
  const extracted = extractJson(text);
  if (!extracted.ok) return extracted;
  // A "__proto__" key would vanish in zod's copy and deep nesting overflow the copy below: both
  // go back to the model as a schema miss (one repair), never silently lost or thrown.
  const problem = jsonDataProblem(extracted.value);
  if (problem !== null) return { ok: false, reason: problem, json: extracted.value };
  // Own keys only: a schema's property may be named like one of Object.prototype's.
  const result = schema.safeParse(ownData(extracted.value));
  if (result.success) return { ok: true, value: result.data, json: extracted.value };
  return {
    ok: false,
    reason: `The JSON did not match the required schema:\n${z.prettifyError(result.error)}`,
    json: extracted.value,
  };
}
