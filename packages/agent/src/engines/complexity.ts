// Complexity routing (spec 003 Foundation Task 1): fast heuristics, no LLM. SIMPLE goals are
// single actions on a named target and skip reasoning and planning entirely.
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

export function classifyComplexity(query: string): ComplexityResult {
  const text = query.trim();
  const words = text.split(/\s+/).filter(Boolean).length;
  const command = parseCommand(text);
  // "fill the form with my details" parses as a command but names no single field.
  const vagueTarget =
    command &&
    'target' in command &&
    /\b(form|page|fields|details|everything|all)\b/i.test(command.target);
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
