// What the extension asks of an action's target before it executes anything: the form a
// button submits (to pause on a payment or a deletion the button's name does not tell) and the
// site a click leads to. Read only: nothing on the page changes.
import { siteOf, type FormKind } from '@tandem/contracts';
import { destinationOf, formKindOf } from '../capture/destination';
import { resolveElement } from './resolve';
import { ActionFailure } from './result';

export interface TargetFacts {
  role: string;
  name: string;
  /** What the form this submit button sends does, when the form says. */
  form: FormKind | null;
  /** The site a click on it leads to, when the markup says (a link, a form's action). */
  leadsTo: string | null;
}

/** The facts of each id that is on the page; ids it cannot resolve are left out. */
export function inspectTargets(
  ids: readonly string[],
  doc: Document = document,
): Record<string, TargetFacts> {
  const facts: Record<string, TargetFacts> = {};
  for (const id of ids) {
    try {
      const found = resolveElement(doc, id);
      const destination = destinationOf(found.el);
      facts[id] = {
        role: found.role,
        name: found.name,
        form: formKindOf(found.el),
        leadsTo: destination ? siteOf(destination) : null,
      };
    } catch (error) {
      if (!(error instanceof ActionFailure)) throw error;
    }
  }
  return facts;
}
