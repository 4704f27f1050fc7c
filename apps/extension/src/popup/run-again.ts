// The popup's "Run again with…": the tenant's saved routines of the tab's site, each a goal
// template with parameters. Choosing one asks for a value per parameter; Run fills the template
// and starts the task as typing that goal and pressing Start would, plus the routine's id and
// values so the server can replay the routine instead of asking the model at every step.
import {
  fillTemplate,
  type RoutineOffer,
  type RoutineOfferList,
  type RoutineRunRequest,
} from '@tandem/contracts';
import { plural, savedDate } from '../shared/live-view-format';

/** "firstName" → "First name", "date_of_birth" → "Date of birth", "zip2" → "Zip 2". */
export function readableName(name: string): string {
  const words = name
    .replace(/_+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "saved 12 Nov · 3 runs": what tells two versions of one chore apart at a glance. */
export function offerMeta(offer: Pick<RoutineOffer, 'savedAt' | 'runs'>): string {
  const saved = savedDate(offer.savedAt);
  return [...(saved ? [`saved ${saved}`] : []), plural(offer.runs, 'run')].join(' · ');
}

export type RoutineForm =
  | { ok: true; goal: string; routine: RoutineRunRequest }
  /** `errors`: by parameter name; `problem`: the routine itself cannot be filled. */
  | { ok: false; errors: Record<string, string>; problem?: string };

/**
 * The goal and the routine hint from what the user typed, or an error per empty field. Values
 * are trimmed: a stray space would end up inside the goal and the page's fields.
 */
export function readRoutineForm(
  offer: Pick<RoutineOffer, 'id' | 'goalTemplate' | 'parameters'>,
  typed: Readonly<Record<string, string>>,
): RoutineForm {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const { name } of offer.parameters) {
    const value = (typed[name] ?? '').trim();
    if (value === '') errors[name] = `Enter ${readableName(name).toLowerCase()}.`;
    else values[name] = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  let goal: string;
  try {
    goal = fillTemplate(offer.goalTemplate, values);
  } catch {
    // A template naming a parameter the routine does not list: a saved routine the popup
    // cannot fill, so it says so rather than start a task with a goal that has a hole.
    return { ok: false, errors, problem: 'This routine cannot be filled in: its goal is damaged.' };
  }
  return { ok: true, goal, routine: { routineId: offer.id, values } };
}

export interface RunAgainDeps {
  /** The offers of the tab's site (GET /api/routines/offers). */
  offers(): Promise<RoutineOfferList>;
  /** Starts the task as the Start button does; resolves to an error to show, if any. */
  start(goal: string, routine: RoutineRunRequest): Promise<string | undefined>;
  /** Where a failed offers request is reported: the section then stays absent. */
  log(message: string, error: unknown): void;
}

export interface RunAgain {
  /** Disables Run while the tab's run is active, as Start is. */
  setBusy(busy: boolean): void;
}

type Attrs = Record<string, string>;

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  // Strings become text nodes: names and examples come from stored pages, never parsed as HTML.
  node.append(...children);
  return node;
}

/** The form of one routine: a labelled field per parameter, its error under it, and Run. */
function routineForm(
  doc: Document,
  offer: RoutineOffer,
  deps: RunAgainDeps,
  busy: () => boolean,
): HTMLFormElement {
  const form = el(doc, 'form', {
    id: 'run-again-form',
    class: 'run-again-form',
    'aria-label': `Run “${offer.name}” again`,
    novalidate: '',
  });
  const inputs = offer.parameters.map(({ name, example }, i) => {
    const id = `run-again-${i}`;
    const input = el(doc, 'input', {
      id,
      type: 'text',
      autocomplete: 'off',
      'data-param': name,
      placeholder: example,
    });
    const error = el(doc, 'p', { id: `${id}-error`, class: 'error' });
    error.hidden = true;
    form.append(el(doc, 'label', { for: id }, readableName(name)), input, error);
    return { name, input, error };
  });
  const run = el(doc, 'button', { type: 'submit', class: 'run-again-run' }, 'Run');
  run.disabled = busy();
  const status = el(doc, 'p', { class: 'error', role: 'alert' });
  status.hidden = true;
  form.append(el(doc, 'div', { class: 'row' }, run), status);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy()) return;
    const typed = Object.fromEntries(inputs.map(({ name, input }) => [name, input.value]));
    const read = readRoutineForm(offer, typed);
    for (const { name, input, error } of inputs) {
      const message = read.ok ? undefined : read.errors[name];
      error.textContent = message ?? '';
      error.hidden = message === undefined;
      if (message) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', error.id);
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    }
    status.textContent = read.ok ? '' : (read.problem ?? '');
    status.hidden = read.ok || read.problem === undefined;
    if (!read.ok) {
      inputs.find(({ name }) => read.errors[name])?.input.focus();
      return;
    }
    void deps.start(read.goal, read.routine).then((failed) => {
      status.textContent = failed ?? '';
      status.hidden = !failed;
    });
  });
  return form;
}

/**
 * Asks for the offers and, when there are any, shows them in `section` (left hidden otherwise,
 * a failed request included: the popup works without it).
 */
export async function mountRunAgain(section: HTMLElement, deps: RunAgainDeps): Promise<RunAgain> {
  const doc = section.ownerDocument;
  let busy = false;
  const runButtons = () => section.querySelectorAll<HTMLButtonElement>('.run-again-run');
  const handle: RunAgain = {
    setBusy(next) {
      busy = next;
      for (const button of runButtons()) button.disabled = next;
    },
  };
  let offers: RoutineOffer[];
  try {
    offers = (await deps.offers()).items;
  } catch (error) {
    deps.log('could not load the routines of this site', error);
    return handle;
  }
  if (offers.length === 0) return handle;

  const title = el(doc, 'h2', { id: 'run-again-title' }, 'Run again with…');
  const list = el(doc, 'ul', { class: 'run-again-list' });
  const choices = offers.map((offer) => {
    const button = el(
      doc,
      'button',
      { type: 'button', class: 'run-again-choice', 'aria-expanded': 'false' },
      el(doc, 'span', { class: 'run-again-name' }, offer.name),
      ' ',
      el(doc, 'span', { class: 'hint run-again-meta' }, offerMeta(offer)),
    );
    const item = el(doc, 'li', {}, button);
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') === 'true';
      section.querySelector('#run-again-form')?.remove();
      for (const other of choices) {
        other.setAttribute('aria-expanded', 'false');
        other.removeAttribute('aria-controls');
      }
      if (open) return;
      const form = routineForm(doc, offer, deps, () => busy);
      item.append(form);
      button.setAttribute('aria-expanded', 'true');
      button.setAttribute('aria-controls', form.id);
      (form.querySelector('input') ?? form.querySelector('button'))?.focus();
    });
    list.append(item);
    return button;
  });
  section.setAttribute('aria-labelledby', title.id);
  section.replaceChildren(title, list);
  section.hidden = false;
  return handle;
}
