// A tool call as the tool loop receives it from a provider, for tests that write the model's
// calls themselves.
import type { LlmToolCall } from '@tandem/llm';

/** The call with its arguments parsed from the model's JSON text, as they reach a tool. */
export const parsedToolCall = (name: string, args: unknown): LlmToolCall => ({
  id: 'call',
  name,
  args: JSON.parse(JSON.stringify(args)) as Record<string, unknown>,
});
