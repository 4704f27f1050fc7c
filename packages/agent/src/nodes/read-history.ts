// The reader of renderHistory's lines (history.ts), for the scripted models that answer an
// action prompt with the next step of a script: what they count as done is what the prompt
// shows, as for a model. Beside the renderer so a change of its wording fails
// read-history.test.ts first.

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

/** The "Previous actions:" section of an action prompt, as renderHistory wrote it. */
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
