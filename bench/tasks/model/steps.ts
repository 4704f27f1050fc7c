// The scripted model on an intent script: the plan is the script, and each action prompt is
// answered with the next intent after the verified actions the history shows, on the element
// the page lists under that name. What is not on the page yet is scrolled to; when the script
// is done, finish().
import type { FieldValue, Intent } from '../task';
import {
  act,
  elementsIn,
  historyOf,
  named,
  usable,
  type ActionAnswer,
  type Element,
  type History,
} from '@tandem/agent/testing/model-double';

const quote = (text: string) => JSON.stringify(text);

/** A plan step per intent, naming its target the way step refinement can resolve it. */
export function planStep(intent: Intent): { description: string; refinable: boolean } {
  switch (intent.kind) {
    case 'click':
      return { description: `Click '${intent.target}'`, refinable: true };
    case 'type':
      return { description: `Type ${intent.text} into ${intent.target}`, refinable: true };
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
function fieldEdit(el: Element, field: FieldValue): string | null {
  if (typeof field.value === 'boolean') {
    const checked = el.states.includes('checked');
    return checked === field.value ? null : `click(${quote(el.id)})`;
  }
  if (el.role === 'sel' || el.role === 'combo') {
    return el.value.toLowerCase() === field.value.toLowerCase()
      ? null
      : `select(${quote(el.id)}, ${quote(field.value)})`;
  }
  return el.value === field.value ? null : `setValue(${quote(el.id)}, ${quote(field.value)})`;
}

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

function decide(intent: Intent, elements: readonly Element[], history: History): Decision {
  switch (intent.kind) {
    case 'click': {
      const el = first(elements, intent.target, intent.role);
      return el
        ? act(`Click "${intent.target}".`, `click(${quote(el.id)})`)
        : seek(`"${intent.target}"`, history);
    }
    case 'type': {
      const el = first(elements, intent.target, intent.role);
      if (!el) return seek(`"${intent.target}"`, history);
      if (el.value === intent.text) return 'satisfied';
      return act(
        `Type "${intent.text}" into "${intent.target}".`,
        `setValue(${quote(el.id)}, ${quote(intent.text)})`,
      );
    }
    case 'fill': {
      const chain: { action: string; description: string }[] = [];
      for (const field of intent.fields) {
        const el = first(elements, field.label, field.role);
        if (!el) return seek(`the field "${field.label}"`, history);
        const edit = fieldEdit(el, field);
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

/** The next action of the script for this action-generation prompt. */
export function nextAction(intents: readonly Intent[], goal: string, prompt: string): ActionAnswer {
  const elements = elementsIn(prompt);
  const history = historyOf(prompt);
  for (let index = history.done; index < intents.length; index++) {
    const decision = decide(intents[index] as Intent, elements, history);
    if (decision !== 'satisfied') return withButton(decision, intents[index + 1], elements);
  }
  return act('Every step of the goal is done.', `finish(${quote(`Done: ${goal}`)})`);
}

/** The single action of a SIMPLE command: its script's first intent, on this page. */
export function directAction(
  intents: readonly Intent[],
  prompt: string,
): { thought: string; action: string } {
  const [intent] = intents;
  const decision = intent ? decide(intent, elementsIn(prompt), historyOf('')) : 'satisfied';
  if (decision === 'satisfied' || decision.action.startsWith('scroll'))
    return {
      thought: 'Nothing on the page fits the command.',
      action: 'fail("No element fits the command")',
    };
  return { thought: decision.thought, action: decision.action };
}
