// The reader of renderTree's element lines, for the scripted models (e2e, benches) that answer
// like a model would: they take element ids from the prompt, never hard-code them. It sits
// beside the renderer so that a change of the line format fails read-tree.test.ts, not eight
// fakes far away.
import { KNOWN_NODE_ROLES } from '@tandem/contracts';

/**
 * One element of a line: `14 inp "First name" ="Jas" [required] frame=f1 (occluded) @412,300`,
 * or one of the ids of a line alike elements share (`8,9,10 btn "Add to cart"`).
 */
export interface Element {
  id: string;
  role: string;
  name: string;
  value: string;
  states: string[];
  occluded: boolean;
}

/** Lines of another role are not elements (headings, notes of the page description). */
const ROLES = new Set<string>(Object.keys(KNOWN_NODE_ROLES));

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const LINE = new RegExp(
  `^(\\S+) (\\w+)(?: ${QUOTED})?(?: =${QUOTED})?(?: \\[([^\\]]*)\\])?(?: frame=\\S+)?( \\(occluded\\))?(?: @-?\\d+,-?\\d+)?$`,
);

const unquote = (text: string | undefined) => (text ? (JSON.parse(`"${text}"`) as string) : '');

/** The page part of a prompt: after its "Current page:" / "Page:" / "Page now:" heading. */
function pagePart(prompt: string): string {
  const match = /\n(?:Current page|Page now|Page):\n/.exec(prompt);
  return match ? prompt.slice(match.index + match[0].length) : prompt;
}

/** The page's interactive elements, in the order the prompt (or a rendered tree) lists them. */
export function elementsIn(prompt: string): Element[] {
  const page = pagePart(prompt);
  const end = page.indexOf('</page_content>');
  const out: Element[] = [];
  for (const line of (end >= 0 ? page.slice(0, end) : page).split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m?.[1] || !m[2] || !ROLES.has(m[2])) continue;
    const states = (m[5] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    // Alike elements in a row share a line: `8,9,10 btn "Add to cart"`.
    for (const id of m[1].split(','))
      out.push({
        id,
        role: m[2],
        name: unquote(m[3]),
        value: unquote(m[4]),
        states,
        occluded: m[6] !== undefined,
      });
  }
  return out;
}

const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Elements whose name is `name` (case- and space-insensitive), of `role` when given. */
export function named(elements: readonly Element[], name: string, role?: string): Element[] {
  return elements.filter((e) => norm(e.name) === norm(name) && (!role || e.role === role));
}

/** Can be acted on: not covered by another element and not disabled. */
export const usable = (e: Element) => !e.occluded && !e.states.includes('disabled');
