import { z } from 'zod';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export const DirectActionOutput = z.object({
  thought: z.string().describe('One sentence: which element and why.'),
  action: z.string().describe('Exactly one action in the grammar, e.g. click("14").'),
});

export const directActionSystem = systemPrompt([
  'You turn a single browser command into exactly one action on the page.',
  'Actions: click(id), setValue(id, "text"), select(id, "option"), hover(id), press("Key"), scroll(id or "up"/"down"), navigate("url"), goBack(), wait(seconds), fail("reason").',
  'Use only element ids listed on the page. Never target an element marked (occluded) or [disabled].',
  'If no element fits the command, answer fail("...") explaining what is missing.',
]);

/** `hint` quotes the page (the elements the resolver weighed): it is fenced with the page. */
export function directActionPrompt(
  query: string,
  page: PageState,
  hint: string,
  rules = '',
): string {
  return [
    `Command: ${query}`,
    rules,
    hint ? `Note:\n${fenceUntrusted(hint)}` : '',
    'Page:',
    describePage(page),
  ]
    .filter(Boolean)
    .join('\n\n');
}
