// `selector` (docs/specs.md, "grep and selector"): what a snapshot is limited to. One string names
// an element three ways: an element id from the interactive tree ("@ref:14", "ref:14" or "14"), an
// xpath from the outline ("/main/section#auth"), or a CSS selector.
import { isValidLlmId, LLM_ID_ATTRIBUTE } from '../dom/elements';
import type { XpathBuilder } from './xpath';

const REF = /^@?ref:(.+)$/;

export class SelectorError extends Error {
  override readonly name = 'SelectorError';
}

export function resolveScope(doc: Document, selector: string, builder: XpathBuilder): Element {
  const text = selector.trim();
  const ref = REF.exec(text)?.[1] ?? (/^\d+$/.test(text) ? text : undefined);
  if (ref !== undefined) {
    if (!isValidLlmId(ref))
      throw new SelectorError(`selector: invalid element id ${JSON.stringify(ref)}`);
    const el = doc.querySelector(`[${LLM_ID_ATTRIBUTE}="${ref}"]`);
    if (!el)
      throw new SelectorError(
        `selector: no element with id ${ref} (take an interactive snapshot first)`,
      );
    return el;
  }
  if (text.startsWith('/')) {
    const el = builder.resolve(text)[0];
    if (!el) throw new SelectorError(`selector: xpath ${text} matches no element`);
    return el;
  }
  let el: Element | null;
  try {
    el = doc.querySelector(text);
  } catch (error) {
    throw new SelectorError(
      `selector: invalid CSS selector ${JSON.stringify(text)}: ${(error as Error).message}`,
    );
  }
  if (!el) throw new SelectorError(`selector: ${JSON.stringify(text)} matches no element`);
  return el;
}
