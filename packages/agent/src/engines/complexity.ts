// Complexity routing (docs/specs.md, "LangGraph and complexity routing"): fast heuristics, no LLM.
// SIMPLE goals are single actions on a named target and skip reasoning and planning entirely.
import type { Complexity } from '@tandem/contracts';
import { parseCommand } from './command-parser';

export interface ComplexityResult {
  complexity: Complexity;
  confidence: number;
  reason: string;
}

// Goals that imply several steps, a form, navigation through the app or gathering data.
const COMPLEX_WORDS =
  /\b(add|create|new|register|sign\s*up|book|order|buy|purchase|fill\s+(?:out|in)\s+the\s+form|form|find|search\s+for|look\s*up|collect|extract|every|all|list|compare|update|edit|change|delete|remove|schedule|apply|submit\s+the|log\s*in|login)\b/i;

// A goal that wants something back is a question, whatever command it starts with: "open my
// messages and tell me how many are unread" must read and answer, not click and finish.
const ASKS =
  /\?|\b(tell me|let me know|how many|how much|what|which|whether|who|when|where|why)\b/i;
// A part that starts with one of these asks for an action of its own, though no one-action
// command parses it ("…and write 'Thanks' in the comments").
const IMPERATIVE =
  /^(write|fill|enter|add|tell|find|check|read|rate|copy|paste|send|open|go|visit|click|type|select|choose|pick|search|look|submit|save|delete|remove|buy|pay|book|print|download|upload|reply|share|post|log|sign|create|update|edit|change|set)\b/i;
// Where a second part of a goal starts: "click A, then B", "open A and tell me…".
const PART_BREAK = /\s*(?:[,;]|\band\b|\bthen\b)\s*/i;

/**
 * Why a goal that parses as a command is more than one bare command, or null: it asks a
 * question, or one of its further parts is a command of its own. Quoted names are left out
 * ("click 'What's new'" asks nothing), and a part that is not a command is part of a name
 * ("click Terms and Conditions").
 */
function moreThanACommand(text: string): string | null {
  const unquoted = text.replace(/["“'‘`][^"”'’`]*["”'’`]/g, ' ');
  if (ASKS.test(unquoted)) return 'the goal asks a question: it needs reading and an answer';
  const parts = unquoted.split(PART_BREAK).slice(1);
  if (parts.some((part) => parseCommand(part) !== null || IMPERATIVE.test(part)))
    return 'the goal has more than one part';
  return null;
}

export function classifyComplexity(query: string): ComplexityResult {
  const text = query.trim();
  const words = text.split(/\s+/).filter(Boolean).length;
  const command = parseCommand(text);
  // "fill the form with my details" parses as a command but names no single field.
  const vagueTarget =
    command &&
    'target' in command &&
    /\b(form|page|fields|details|everything|all)\b/i.test(command.target);
  const more = command ? moreThanACommand(text) : null;
  if (more) return { complexity: 'COMPLEX', confidence: 0.85, reason: more };
  if (command && !vagueTarget) {
    // "type Jas into First name" is one action even though it names a field and a value.
    if (words <= 12) {
      return {
        complexity: 'SIMPLE',
        confidence: words <= 6 ? 0.9 : 0.75,
        reason: `single ${command.kind} command on a named target`,
      };
    }
    return {
      complexity: 'COMPLEX',
      confidence: 0.6,
      reason: 'command is long; treating as multi-step',
    };
  }
  if (COMPLEX_WORDS.test(text)) {
    return {
      complexity: 'COMPLEX',
      confidence: 0.85,
      reason: 'goal implies several steps or a form',
    };
  }
  return {
    complexity: 'COMPLEX',
    confidence: 0.6,
    reason: 'not a recognised single-action command',
  };
}
