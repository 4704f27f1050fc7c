// Reading a prompt the way a model does: the goal, the page's element list, the actions taken
// so far. Only what the server writes into every prompt is read; nothing comes from the bench.

/** One element line of the page list: `14 inp "First name" ="Jas" [required] (occluded)`. */
export interface Element {
  id: string;
  role: string;
  name: string;
  value: string;
  states: string[];
  occluded: boolean;
}

const ROLES = new Set([
  'btn',
  'inp',
  'link',
  'chk',
  'sel',
  'radio',
  'txt',
  'opt',
  'tab',
  'menu',
  'sw',
  'combo',
  'sld',
  'edit',
]);

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const LINE = new RegExp(
  `^(\\S+) (\\w+)(?: ${QUOTED})?(?: =${QUOTED})?(?: \\[([^\\]]*)\\])?(?: frame=\\S+)?( \\(occluded\\))?$`,
);

const unquote = (text: string | undefined) => (text ? (JSON.parse(`"${text}"`) as string) : '');

/** The goal the prompt states on its first line ("User goal:", "Goal:" or "Command:"). */
export function goalOf(prompt: string): string {
  return /^(?:User goal|Goal|Command): (.*)$/m.exec(prompt)?.[1]?.trim() ?? '';
}

/** The page part of the prompt: after its "Current page:" / "Page:" / "Page now:" heading. */
function pagePart(prompt: string): string {
  const match = /\n(?:Current page|Page now|Page):\n/.exec(prompt);
  return match ? prompt.slice(match.index + match[0].length) : prompt;
}

/** The page's interactive elements, in the order the prompt lists them. */
export function elementsIn(prompt: string): Element[] {
  const page = pagePart(prompt);
  const end = page.indexOf('</page_content>');
  const out: Element[] = [];
  for (const line of (end >= 0 ? page.slice(0, end) : page).split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m?.[1] || !m[2] || !ROLES.has(m[2])) continue;
    out.push({
      id: m[1],
      role: m[2],
      name: unquote(m[3]),
      value: unquote(m[4]),
      states: (m[5] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
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

/** Scrolling, waiting and hovering only reveal things; they do no step of a script. */
const REVEALING = new Set(['scroll', 'wait', 'hover']);

export interface History {
  /** Verified actions that did something (a chain counts once): the script's progress. */
  done: number;
  /** Scrolls at the end of the history, in a row. */
  trailingScrolls: number;
  /** The direction of the last action when it was a scroll. */
  lastScroll: 'up' | 'down' | null;
  /** Scrolls down minus scrolls up so far. */
  netScrollDown: number;
}

/** The "Previous actions:" section of an action prompt, as the agent's history renders it. */
export function historyOf(prompt: string): History {
  const section = /\nPrevious actions:\n([\s\S]*?)(?:\n\n|$)/.exec(prompt)?.[1] ?? '';
  const history: History = { done: 0, trailingScrolls: 0, lastScroll: null, netScrollDown: 0 };
  for (const line of section.split('\n')) {
    const earlier = /^(\d+) earlier steps? completed\.$/.exec(line.trim());
    if (earlier) {
      history.done += Number(earlier[1]);
      continue;
    }
    // "- step 3: scroll ×4, all verified; last scroll("down")…" or "- step 1: click("3") (…)"
    const run = /^- step \d+: (\w+) ×(\d+), all verified; last (\w+\([^)]*\))/.exec(line);
    const single = /^- step \d+: ((\w+)\([^)]*\))/.exec(line);
    const verb = run?.[1] ?? single?.[2];
    if (!verb) continue;
    const count = run ? Number(run[2]) : 1;
    const last = run?.[3] ?? single?.[1] ?? '';
    const failed = !run && line.includes(' (failed: ');
    // A chain ended by the form's button did the script's next step (pressing it) as well.
    const pressed = !run && /; click\("[^"]*"\)(?: \(|$)/.test(line) ? 1 : 0;
    if (verb === 'scroll') {
      const direction = /"up"/.test(last) ? 'up' : 'down';
      history.netScrollDown += direction === 'down' ? count : -count;
      history.trailingScrolls += count;
      history.lastScroll = direction;
      continue;
    }
    history.trailingScrolls = 0;
    history.lastScroll = null;
    if (!failed && !REVEALING.has(verb)) history.done += count + pressed;
  }
  return history;
}

/** The text between a heading line and the next blank line ("Steps done so far:" …). */
export function sectionAfter(prompt: string, heading: string): string {
  const at = prompt.indexOf(`${heading}\n`);
  if (at < 0) return '';
  const rest = prompt.slice(at + heading.length + 1);
  const end = rest.indexOf('\n\n');
  return end >= 0 ? rest.slice(0, end) : rest;
}
