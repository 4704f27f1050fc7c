// Every node's system prompt opens with the same preamble (the rule on untrusted page content)
// and its own instructions follow. The provider reads the system instruction first, so two
// consecutive calls of a task made by different nodes still begin with the same text, the part
// of a request a provider's prompt cache (Gemini's implicit caching) can reuse. Within a node,
// the prompt builders keep the static sections first and the changing ones last for the same
// reason.
import { UNTRUSTED_CONTENT_RULE } from '../page/page-state';

/** The text every node's system prompt starts with (one line). */
export const SYSTEM_PREAMBLE = UNTRUSTED_CONTENT_RULE;

/** A node's system prompt: the shared preamble, then the node's own lines. */
export function systemPrompt(lines: readonly string[]): string {
  return [SYSTEM_PREAMBLE, ...lines].join('\n');
}

/** A system prompt without the shared preamble: what tells one node's prompt from another's. */
export function nodeInstructions(system: string): string {
  return system.startsWith(`${SYSTEM_PREAMBLE}\n`)
    ? system.slice(SYSTEM_PREAMBLE.length + 1)
    : system;
}
