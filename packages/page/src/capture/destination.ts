// Where a click leads, and what a submit button sends, as the page itself says: the site of a
// link's href or of the form a submit button posts to, and whether that form takes a payment,
// deletes something or sends a message. The tree carries the site when it is another one
// (`h`), so the server refuses clicks that leave the task's sites; the extension asks for both
// before it executes, to block such clicks and to pause on high-risk submits.
import { siteOf, type FormKind } from '@tandem/contracts';

const SUBMIT_TYPES = new Set(['submit', 'image']);

/** The form a submit control sends (the `form` property covers form="…"), or null. */
export function submittedForm(el: Element): HTMLFormElement | null {
  const tag = el.tagName;
  if (tag !== 'BUTTON' && tag !== 'INPUT') return null;
  const type = (el.getAttribute('type') ?? (tag === 'BUTTON' ? 'submit' : 'text')).toLowerCase();
  if (!SUBMIT_TYPES.has(type)) return null;
  return (el as HTMLButtonElement).form ?? null;
}

/**
 * The absolute URL a click on `el` navigates to, when the markup says: a link's href (also for
 * an element inside a link), or the action of the form a submit button sends (its own
 * formaction first). null for everything else, and for javascript: links.
 */
export function destinationOf(el: Element): string | null {
  const link = el.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  if (link) return /^https?:/i.test(link.href) ? link.href : null;
  const form = submittedForm(el);
  if (!form) return null;
  const own = el.getAttribute('formaction');
  const url = own !== null ? (el as HTMLButtonElement).formAction : form.action;
  return /^https?:/i.test(url) ? url : null;
}

/** The site a click on `el` leads to when it is not the site of `el`'s own page; else null. */
export function foreignSiteOf(el: Element): string | null {
  const destination = destinationOf(el);
  if (!destination) return null;
  const here = siteOf(el.ownerDocument.defaultView?.location.href ?? el.ownerDocument.URL);
  const there = siteOf(destination);
  return there && there !== here ? there : null;
}

const PAYMENT_FIELD = /card.?(number|no|num)|cc-?(number|num|csc|exp)|cvv|cvc|security.?code|iban/i;
const DELETE_FORM = /delete|destroy|remove|erase/i;
const MESSAGE_FORM = /message|mail|comment|chat|reply|compose/i;

/** How a form presents itself: its action, name, id and label. */
function formWords(form: HTMLFormElement): string {
  return [
    form.getAttribute('action') ?? '',
    form.getAttribute('name') ?? '',
    form.id,
    form.getAttribute('aria-label') ?? '',
  ].join(' ');
}

/**
 * What the form a submit button sends does, when the form says: it asks for card details
 * (payment), its method or action deletes (delete), or it has a text area and says it sends a
 * message (message). null for other forms and for anything that is not a submit button.
 */
export function formKindOf(el: Element): FormKind | null {
  const form = submittedForm(el);
  if (!form) return null;
  const fields = Array.from(form.elements);
  const paymentField = fields.some((f) =>
    PAYMENT_FIELD.test(
      [
        f.getAttribute('autocomplete') ?? '',
        f.getAttribute('name') ?? '',
        f.id,
        f.getAttribute('aria-label') ?? '',
      ].join(' '),
    ),
  );
  if (paymentField) return 'payment';
  const method = fields.find((f) => f.getAttribute('name') === '_method')?.getAttribute('value');
  if (/^delete$/i.test(method ?? '') || DELETE_FORM.test(formWords(form))) return 'delete';
  if (fields.some((f) => f.tagName === 'TEXTAREA') && MESSAGE_FORM.test(formWords(form)))
    return 'message';
  return null;
}
