// The reader of the prompts the nodes build, for the scripted models (e2e, benches): the goal,
// a section by its heading, the page's elements (read-tree.ts) and the history
// (read-history.ts). Beside actionGenerationPrompt, whose round trip read-prompt.test.ts checks,
// so a reworded prompt breaks one test here instead of the fakes that read it.
import { elementsIn, type Element } from '../../page/read-tree';
import { historyOf, type History } from '../read-history';

/** The goal a prompt states on its first line ("User goal:", "Goal:" or "Command:"). */
export function goalOf(prompt: string): string {
  return /^(?:User goal|Goal|Command): (.*)$/m.exec(prompt)?.[1]?.trim() ?? '';
}

/** The text between a heading line and the next blank line ("Steps done so far:" …). */
export function sectionAfter(prompt: string, heading: string): string {
  const at = prompt.indexOf(`${heading}\n`);
  if (at < 0) return '';
  const rest = prompt.slice(at + heading.length + 1);
  const end = rest.indexOf('\n\n');
  return end >= 0 ? rest.slice(0, end) : rest;
}

export interface ActionPrompt {
  goal: string;
  elements: Element[];
  history: History;
}

/** What a model answering action generation reads: the goal, the page, the actions so far. */
export function readActionPrompt(prompt: string): ActionPrompt {
  return { goal: goalOf(prompt), elements: elementsIn(prompt), history: historyOf(prompt) };
}
