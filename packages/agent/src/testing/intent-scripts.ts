// The scripted model on a goal's script, shared by bench:tasks' catalogue and the e2e scenarios:
// the plan is the script, and each action prompt is answered with the next intent after the
// verified actions the history shows, on the element the page lists under that name. What is
// not on the page yet is scrolled to; when the script is done, finish(). Data scripts (extract,
// collect) are data-scripts.ts'. Element ids are always read from the prompt, as a model would.
import { sectionAfter } from '../nodes/action-generation/read-prompt';
import { LAST_STEP } from '../nodes/verification/prompt';
import { historyOf, type History } from '../nodes/read-history';
import { elementsIn, named, usable, type Element } from '../page/read-tree';
import {
  collectAction,
  extractAction,
  type CollectScript,
  type ExtractScript,
} from './data-scripts';
import { act, verdict, type ActionAnswer, type Answers, type ModelCall } from './model-double';

/** A value only the prompt holds (a secret's placeholder, the user's answer); null: none yet. */
export type FromPrompt = (prompt: string) => string | null;

/** A field of a form fill: its label, the value, and the role when a label is ambiguous. */
export interface FieldValue {
  label: string;
  /** Text for inputs, an option's text for selects, true/false for checkboxes and radios. */
  value: string | boolean | FromPrompt;
  /** Role code of the element in the tree (`inp`, `sel`, `radio`, `chk`, `txt`…). */
  role?: string;
}

interface Worded {
  /** The plan step in these words: it names no target, so action generation decides it. */
  step?: string;
}

/** One thing the scripted model does, in order. Every intent is one action on the page. */
export type Intent =
  | ({ kind: 'click'; target: string; role?: string } & Worded)
  | ({ kind: 'type'; target: string; text: string | FromPrompt; role?: string } & Worded)
  /**
   * Several fields of one form in one chain (one round trip); `what` names the form. The chain
   * ends with the next step's button, or `press`'s in this step; false: the button is a step.
   */
  | ({ kind: 'fill'; what: string; fields: FieldValue[]; press?: string | false } & Worded);

export interface StepsScript {
  kind: 'steps';
  /** Intents in order, then finish(). */
  intents: Intent[];
  /** The text the page shows once the goal is met. */
  done?: RegExp;
  /** The text of a page still at work (a spinner): the action has not taken effect yet. */
  busy?: RegExp;
  /** The final answer once done, and the one after the user rejected the step. */
  says?: { done: string; rejected?: string };
}

export type Script = StepsScript | ExtractScript | CollectScript;

const quote = (text: string) => JSON.stringify(text);

/** A value of the script, or the one the prompt holds. */
const read = <T>(value: T | FromPrompt, prompt: string) =>
  typeof value === 'function' ? (value as FromPrompt)(prompt) : value;

/** A plan step per intent, naming its target the way step refinement can resolve it. */
function planStep(intent: Intent, prompt: string): { description: string; refinable: boolean } {
  if (intent.step) return { description: intent.step, refinable: false };
  switch (intent.kind) {
    case 'click':
      return { description: `Click '${intent.target}'`, refinable: true };
    case 'type': {
      const text = read(intent.text, prompt) ?? `the ${intent.target.toLowerCase()}`;
      return { description: `Type ${text} into ${intent.target}`, refinable: true };
    }
    case 'fill':
      // No target named on purpose: the form is filled as one chain by action generation.
      return { description: `Fill in the ${intent.what} fields`, refinable: false };
  }
}

/** The most actions the script waits for a page to reveal a target by scrolling. */
const MAX_SCROLLS = 4;

type Decision = ActionAnswer | 'satisfied';

/**
 * Not on the page: scroll towards it. Keep the direction of a search under way; otherwise,
 * after scrolling down earlier, look back up (menus and headers sit at the top).
 */
function seek(what: string, history: History): ActionAnswer {
  if (history.trailingScrolls >= MAX_SCROLLS)
    return act(`No ${what} on the page.`, `fail(${quote(`${what} is not on the page`)})`);
  const direction = history.lastScroll ?? (history.netScrollDown > 0 ? 'up' : 'down');
  return act(`${what} is not in view; scroll ${direction}.`, `scroll("${direction}")`);
}

function first(elements: readonly Element[], name: string, role?: string): Element | undefined {
  return named(elements, name, role).find(usable);
}

/** The edit a field needs to hold its value, or null when it already does. */
function fieldEdit(el: Element, value: string | boolean): string | null {
  if (typeof value === 'boolean') {
    const checked = el.states.includes('checked');
    return checked === value ? null : `click(${quote(el.id)})`;
  }
  if (el.role === 'sel' || el.role === 'combo') {
    return el.value.toLowerCase() === value.toLowerCase()
      ? null
      : `select(${quote(el.id)}, ${quote(value)})`;
  }
  return el.value === value ? null : `setValue(${quote(el.id)}, ${quote(value)})`;
}

/** The prompt gives no value the script reads from it: nothing to type, so give up. */
const unknown = (what: string) =>
  act(`The prompt gives no ${what}.`, `fail(${quote(`No ${what} to type`)})`);

/**
 * As the action prompt asks: a form's chain ends with its button when the next step presses
 * one the page lists (the server checks it may; the history then shows it pressed).
 */
function withButton(answer: ActionAnswer, next: Intent | undefined, elements: readonly Element[]) {
  if (!answer.chain || next?.kind !== 'click') return answer;
  const button = first(elements, next.target, next.role);
  if (button?.role !== 'btn') return answer;
  return {
    ...answer,
    thought: `${answer.thought} Then press "${next.target}".`,
    chain: [...answer.chain, { action: `click(${quote(button.id)})`, description: next.target }],
  };
}

function decide(
  intent: Intent,
  prompt: string,
  history: History,
  elements = elementsIn(prompt),
): Decision {
  switch (intent.kind) {
    case 'click': {
      const el = first(elements, intent.target, intent.role);
      return el
        ? act(`Click "${intent.target}".`, `click(${quote(el.id)})`)
        : seek(`"${intent.target}"`, history);
    }
    case 'type': {
      const el = first(elements, intent.target, intent.role);
      const text = read(intent.text, prompt);
      if (!el) return seek(`"${intent.target}"`, history);
      if (text === null) return unknown(intent.target);
      if (el.value === text) return 'satisfied';
      return act(
        `Type "${text}" into "${intent.target}".`,
        `setValue(${quote(el.id)}, ${quote(text)})`,
      );
    }
    case 'fill': {
      const chain: { action: string; description: string }[] = [];
      for (const field of intent.fields) {
        const el = first(elements, field.label, field.role);
        if (!el) return seek(`the field "${field.label}"`, history);
        const value = read(field.value, prompt);
        if (value === null) return unknown(field.label);
        const edit = fieldEdit(el, value);
        if (edit) chain.push({ action: edit, description: field.label });
      }
      const [head] = chain;
      if (!head) return 'satisfied';
      const fields = chain.map((c) => c.description).join(', ');
      return act(`Fill in the ${intent.what} form: ${fields}.`, head.action, {
        chain: chain.length > 1 ? chain : null,
      });
    }
  }
}

/** The button a step's chain ends with: the fill's own, or the next step's. */
function buttonAfter(intents: readonly Intent[], index: number): Intent | undefined {
  const intent = intents[index];
  if (intent?.kind !== 'fill' || intent.press === undefined) return intents[index + 1];
  return intent.press ? { kind: 'click', target: intent.press } : undefined;
}

/** The next action of the script for this action-generation prompt. */
function nextAction(script: StepsScript, goal: string, prompt: string): ActionAnswer {
  const { intents, says } = script;
  // The user said no on the approval card: a model respects it.
  if (says?.rejected && /The user rejected/.test(prompt))
    return act('The user does not want it done.', `finish(${quote(says.rejected)})`);
  const history = historyOf(prompt);
  const elements = elementsIn(prompt);
  for (let index = history.done; index < intents.length; index++) {
    const decision = decide(intents[index] as Intent, prompt, history, elements);
    if (decision === 'satisfied') continue;
    const answer = withButton(decision, buttonAfter(intents, index), elements);
    // A chain that ends with the next step's button does that step too.
    const pressed = answer !== decision && buttonAfter(intents, index) === intents[index + 1];
    const last = index + (pressed ? 1 : 0) >= intents.length - 1;
    return withOutcome(answer, elements, last ? (says?.done ?? `Done: ${goal}.`) : null, script);
  }
  return act('Every step of the goal is done.', `finish(${quote(says?.done ?? `Done: ${goal}`)})`);
}

/**
 * The outcome a model states with its action: a link leads elsewhere; the script's last
 * action completes the goal, with the answer the user then reads (`done`; null otherwise).
 * Scrolls and give-ups state none.
 */
function withOutcome(
  answer: ActionAnswer,
  elements: readonly Element[],
  done: string | null,
  script?: StepsScript,
): ActionAnswer {
  if (/^(fail|finish)\(/.test(answer.action)) return answer;
  // Scrolling to a target is never the goal's last action.
  const scrolls = answer.action.startsWith('scroll(');
  const id = /^\w+\("([^"]+)"/.exec(answer.action)?.[1];
  const target = elements.find((e) => e.id === id);
  return {
    ...answer,
    outcome: {
      description: done ? 'The goal is done.' : 'The step takes effect.',
      urlShouldChange: !answer.chain && target?.role === 'link',
      textShouldAppear: done ? literalOf(script?.done) : null,
      completesGoal: done !== null && !scrolls,
      answer: scrolls ? null : done,
      nextGoal: null,
    },
  };
}

/**
 * The single action of a SIMPLE command: its script's first intent, on this page; a model
 * tells a target covered by another element from one the page lacks.
 */
export function directAction(
  intents: readonly Intent[],
  prompt: string,
): { thought: string; action: string } {
  const [intent] = intents;
  const decision = intent ? decide(intent, prompt, historyOf('')) : 'satisfied';
  if (decision !== 'satisfied' && !decision.action.startsWith('scroll'))
    return { thought: decision.thought, action: decision.action };
  const target = intent && intent.kind !== 'fill' ? intent.target : '';
  if (named(elementsIn(prompt), target).some((e) => e.occluded))
    return {
      thought: `"${target}" is covered by a dialog.`,
      action: `fail(${quote(`${target} is covered by another element (occluded)`)})`,
    };
  return {
    thought: 'Nothing on the page fits the command.',
    action: 'fail("No element fits the command")',
  };
}

function planOf(script: Script | undefined, prompt: string, from = 0) {
  if (!script) return [{ description: 'Finish', refinable: false }];
  if (script.kind === 'extract')
    return [{ description: 'Extract the products of each page asked for', refinable: false }];
  if (script.kind === 'collect')
    return [{ description: 'Collect every listing, page by page', refinable: false }];
  const steps = script.intents.slice(from).map((intent) => planStep(intent, prompt));
  if (steps.length === 0) return [{ description: 'Finish the goal', refinable: false }];
  // The planner knows what the page says once the goal is met, when the script does.
  const expect = literalOf(script.done);
  return expect ? [...steps.slice(0, -1), { ...steps.at(-1), expect }] : steps;
}

/** The text a regex matches when it is plain text (`/Changes confirmed\./`), else null. */
function literalOf(done: RegExp | undefined): string | null {
  if (!done || !/^(?:[\w ,'’-]|\\.)+$/.test(done.source)) return null;
  return done.source.replace(/\\(.)/g, '$1');
}

/** What the plan tells the user once its last step worked. */
const planAnswer = (script: Script | undefined, goal: string) =>
  script?.kind === 'steps' ? { answer: script.says?.done ?? `Done: ${goal}.` } : {};

/** Steps already done, as re-planning's prompt lists them. */
function stepsDone(prompt: string): number {
  const done = sectionAfter(prompt, 'Steps done so far:');
  return done === '(none)' ? 0 : done.split('\n').filter(Boolean).length;
}

/** What the outcome of an action on a link is: a new URL. */
function predictOutcome({ prompt }: ModelCall): unknown {
  const id = /^Action: \w+\("([^"]+)"/m.exec(prompt)?.[1];
  const target = elementsIn(prompt).find((e) => e.id === id);
  return {
    description: target ? `"${target.name}" responds` : 'The page responds to the action',
    urlShouldChange: target?.role === 'link',
    nextGoal: null,
  };
}

/** Judges the page: done when it shows `done`, not yet taken effect while it shows `busy`. */
function verify(script: Script | undefined, prompt: string): unknown {
  // The goal line is left out: a goal may name the text that means it is met.
  const page = prompt.split('\n').slice(1).join('\n');
  const steps = script?.kind === 'steps' ? script : undefined;
  const busy = !(steps?.done?.test(page) ?? false) && (steps?.busy?.test(page) ?? false);
  // Without a text that means the goal is met, the plan's last step working is what does.
  const done = steps?.done
    ? steps.done.test(page)
    : !busy && prompt.includes(LAST_STEP) && Boolean(steps);
  const reason = done
    ? 'The page shows the goal is met.'
    : busy
      ? 'The page is still at work.'
      : 'The action took effect.';
  return { ...verdict(done, reason, 0.9), action_succeeded: !busy };
}

/** The final answer: the script's, or the goal as done with what the page says. */
function finalAnswer(script: Script | undefined, { goal, prompt }: ModelCall): string {
  if (script?.kind === 'steps' && script.says) {
    const { done, says } = script;
    return done?.test(prompt) ? says.done : (says.rejected ?? says.done);
  }
  const shown = sectionAfter(prompt, 'What the page shows now:').split('\n')[1];
  return shown ? `Done: ${goal}. The page says: ${shown}` : `Done: ${goal}.`;
}

/**
 * The answers of planning (and re-planning from the steps done), action generation, direct
 * action, outcome prediction, verification and the final answer for the script of the call's
 * goal; `overrides` replace single nodes (undefined: none here, so re-planning answers as
 * planning and other nodes are left to the next scenario). `readCards` reads a list's cards
 * from a content snapshot for collect scripts (this package does not know the demo sites).
 */
export function scriptAnswers(
  scriptFor: (goal: string) => Script | undefined,
  overrides: Answers = {},
  readCards: (snapshot: string) => readonly object[] = () => [],
): Answers {
  const on =
    (answer: (script: Script | undefined, call: ModelCall) => unknown) => (call: ModelCall) =>
      answer(scriptFor(call.goal), call);
  return {
    planning: on((script, { goal, prompt }) => ({
      goal,
      steps: planOf(script, prompt),
      ...planAnswer(script, goal),
    })),
    replanning: on((script, { goal, prompt }) => ({
      goal,
      steps: planOf(script, prompt, stepsDone(prompt)),
    })),
    action_generation: on((script, { goal, prompt }) => {
      if (!script) return act('Unknown goal.', `fail("The bench has no task for this goal")`);
      if (script.kind === 'extract') return extractAction(script, prompt);
      if (script.kind === 'collect') return collectAction(script, prompt, readCards);
      return nextAction(script, goal, prompt);
    }),
    direct_action: on((script, { prompt }) =>
      script?.kind === 'steps'
        ? directAction(script.intents, prompt)
        : { thought: 'Unknown command.', action: 'fail("The bench has no task for this command")' },
    ),
    outcome_prediction: predictOutcome,
    verification: on((script, { prompt }) => verify(script, prompt)),
    finalize: on((script, call) => ({ answer: finalAnswer(script, call) })),
    ...overrides,
  };
}
