// Actions in plain language, for people (the live view, the admin trace, final answers):
// "Clicked “Patients”", "Typed “Jas” into First name". In contracts because the server
// writes it into responses and events, and the extension renders the same words for steps it
// records. Page content (names, typed text) is shown as text by every renderer, never as HTML.
import type { ParsedAction } from './action-grammar';
import type { SnapshotRequest } from './snapshot';

/** The name of an action's target element, by id, when the caller knows it. */
export type TargetNames = Readonly<Record<string, string>>;

const MAX_QUOTED = 80;

const quoted = (text: string): string => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > MAX_QUOTED ? `${oneLine.slice(0, MAX_QUOTED - 1)}…` : oneLine;
  return `“${short}”`;
};

/** The element as people call it: its name when known, else its role-free id. */
function element(id: string, names: TargetNames, fallback: string): string {
  const name = names[id]?.trim();
  return name ? quoted(name) : `${fallback} ${id}`;
}

/** A field as people call it: its label, unquoted ("into First name"), else its id. */
function field(id: string, names: TargetNames): string {
  const name = names[id]?.replace(/\s+/g, ' ').trim();
  return name
    ? name.length > MAX_QUOTED
      ? `${name.slice(0, MAX_QUOTED - 1)}…`
      : name
    : `field ${id}`;
}

/** One action, as if done: "Clicked “Patients”". */
export function describeAction(action: ParsedAction, names: TargetNames = {}): string {
  switch (action.name) {
    case 'click':
      return `Clicked ${element(action.args.id, names, 'element')}`;
    case 'clickAt':
      return `Clicked the point (${Math.round(action.args.x)}, ${Math.round(action.args.y)}) of the page`;
    case 'hover':
      return `Pointed at ${element(action.args.id, names, 'element')}`;
    case 'setValue':
      return action.args.text === ''
        ? `Cleared ${field(action.args.id, names)}`
        : `Typed ${quoted(action.args.text)} into ${field(action.args.id, names)}`;
    case 'select':
      return `Chose ${quoted(action.args.option)} in ${field(action.args.id, names)}`;
    case 'press':
      return `Pressed ${action.args.key}`;
    case 'scroll':
      return 'direction' in action.args
        ? scrolled(action.args.direction)
        : `Scrolled to ${element(action.args.id, names, 'element')}`;
    case 'navigate':
      return `Opened ${action.args.url}`;
    case 'goBack':
      return 'Went back to the previous page';
    case 'wait':
      return `Waited ${action.args.seconds} s for the page`;
    case 'googleSearch':
      return `Searched the web for ${quoted(action.args.query)}`;
    case 'finish':
      return 'Finished';
    case 'fail':
      return 'Gave up';
  }
}

function scrolled(direction: 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom'): string {
  return direction === 'top' || direction === 'bottom'
    ? `Scrolled to the ${direction} of the page`
    : `Scrolled ${direction}`;
}

/** A chain sent in one response: its actions in order, joined for one line. */
export function describeActions(actions: readonly ParsedAction[], names: TargetNames = {}): string {
  const parts = actions.map((a) => describeAction(a, names));
  if (parts.length <= 1) return parts[0] ?? '';
  // "Typed “Jas” into First name, then typed “Patel” into Last name"
  return parts
    .map((p, i) => (i === 0 ? p : p.charAt(0).toLowerCase() + p.slice(1)))
    .join(', then ');
}

/**
 * A richer capture of the page the server asked for (docs/specs.md, "Mode Priority"), as if done:
 * `full` answers needs_full_dom, `hybrid` needs_screenshot.
 */
export function describePageCapture(mode: 'full' | 'hybrid'): string {
  return mode === 'full' ? 'Read the whole page' : 'Looked at a screenshot of the page';
}

/** A page read the server asked for (docs/specs.md, "page snapshots"), as if done. */
export function describePageRead(request: Pick<SnapshotRequest, 'mode' | 'grep'>): string {
  const what =
    request.mode === 'outline'
      ? 'the page outline'
      : request.mode === 'content'
        ? 'the page content'
        : 'the page’s controls';
  const grep = typeof request.grep === 'string' ? request.grep : request.grep?.pattern;
  return grep ? `Read ${what} about ${quoted(grep)}` : `Read ${what}`;
}
