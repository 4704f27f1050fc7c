// Text for the routines admin pages: a template with its parameters picked out, a step's
// target and expected outcome in a line each. Pure, so they are unit-tested without a page.
import {
  ROUTINE_COLLECT,
  ROUTINE_EXTRACT,
  type RoutineExpectation,
  type RoutineLocator,
  type RoutineStep,
  type RoutineTarget,
} from '@tandem/contracts';

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'parameter'; name: string };

/**
 * `Add patient {firstName}` as text and parameter parts. Doubled braces are literal braces
 * (the compiler's escaping), shown single.
 */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  const pattern = /\{\{|\}\}|\{([A-Za-z][A-Za-z0-9_]{0,63})\}/g;
  let last = 0;
  for (const match of template.matchAll(pattern)) {
    text += template.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[1] === undefined) {
      text += match[0][0];
      continue;
    }
    if (text) parts.push({ kind: 'text', text });
    text = '';
    parts.push({ kind: 'parameter', name: match[1] });
  }
  text += template.slice(last);
  if (text) parts.push({ kind: 'text', text });
  return parts;
}

export function locatorText(locator: RoutineLocator): string {
  switch (locator.by) {
    case 'role-name':
      return `${locator.role} “${locator.name}”`;
    case 'label':
      return `labelled “${locator.text}”`;
    case 'near':
      return `${locator.role} ${locator.side} “${locator.text}”`;
    case 'ordinal':
      return `${locator.role} #${locator.index + 1}`;
  }
}

/** The first locator (the one a rerun tries first), and how many more there are. */
export function targetText(target: RoutineTarget | null, action?: RoutineStep['action']): string {
  if (action === ROUTINE_EXTRACT || action === ROUTINE_COLLECT) return 'the page’s content';
  if (!target) return '—';
  const [first, ...rest] = target.locators;
  const more = rest.length > 0 ? ` (+${rest.length} more)` : '';
  return first ? `${locatorText(first)}${more}` : target.fingerprint;
}

/** What verification confirmed after the step, in a few words. */
export function expectationText(
  expect: RoutineExpectation | null,
  action?: RoutineStep['action'],
): string {
  // A read has no visible effect: what it read when the routine was saved says more.
  if (action === ROUTINE_EXTRACT) {
    const first = /^[^.]*\./.exec(expect?.reason ?? '')?.[0];
    return `reads items with the saved extraction${first ? ` (when saved: ${first})` : ''}`;
  }
  // The step's value is the item type; the reason, the collect line of the saved run.
  if (action === ROUTINE_COLLECT)
    return `collects the items again, with selectors learned from the saved run’s${expect?.reason ? ` (when saved: ${expect.reason})` : ''}`;
  if (!expect) return 'checked with the next step (chained)';
  const facts: string[] = [];
  if (expect.urlChanged) facts.push(`URL → ${expect.url}`);
  if (expect.domChanged) facts.push('page changed');
  if (expect.fieldsHold) facts.push('fields hold their values');
  if (expect.text.length > 0) facts.push(`shows ${expect.text.map((t) => `“${t}”`).join(', ')}`);
  if (facts.length === 0) facts.push('no visible change');
  return `tier ${expect.tier}: ${facts.join('; ')}`;
}
