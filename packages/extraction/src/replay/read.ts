// Reading one field by its rule. Learning, replay and the spot check all read through here, so
// a recipe is judged by exactly the code that will run it.
import type { FieldRule } from './recipe';
import { queryFirst } from './select';
import type { NumberFormat, ScalarType } from './values';
import { convert } from './values';

export type Scalar = string | number | boolean;

/** The element a rule reads, from its scope (the item container, or the root element). */
export function fieldElement(scope: Element, rule: Pick<FieldRule, 'selector'>): Element | null {
  return rule.selector === null ? scope : queryFirst(scope, rule.selector);
}

/** The raw text or attribute value a rule reads; null when the element or attribute is absent. */
export function rawField(
  scope: Element,
  rule: Pick<FieldRule, 'selector' | 'source' | 'attr'>,
): string | null {
  const el = fieldElement(scope, rule);
  if (!el) return null;
  return rule.source === 'attr' ? el.getAttribute(rule.attr ?? '') : el.textContent;
}

/** The language the scope is written in: its nearest lang attribute. */
export const langOf = (scope: Element) => (): string | null =>
  scope.closest('[lang]')?.getAttribute('lang') ??
  scope.ownerDocument.documentElement.getAttribute('lang');

/** How a rule reads numbers: its learned decimal mark, else strictly (see convert). */
export const formatOf = (scope: Element, rule: Pick<FieldRule, 'decimal'>): NumberFormat => ({
  strict: true,
  lang: langOf(scope),
  ...(rule.decimal ? { decimal: rule.decimal } : {}),
});

export function readField(
  scope: Element,
  rule: Pick<FieldRule, 'selector' | 'source' | 'attr' | 'decimal'> & { type: ScalarType },
): Scalar | null {
  const raw = rawField(scope, rule);
  return raw === null ? null : convert(raw, rule.type, formatOf(scope, rule));
}
