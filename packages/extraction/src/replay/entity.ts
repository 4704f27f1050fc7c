// What a page is about, by the words of its title and main heading: two pages of the same
// shape under one URL pattern (inventory and shipments, a catalogue and an order history) fit
// the same selectors, and only these words tell the replay that the second is another list.
import type { Root } from './dom';
import { isDocument } from './dom';

/**
 * Words that say nothing about the entity: paging and filler. Words naming the kind of page
 * ("results", "search") stay: search pages titled by their query share those and nothing else.
 */
const FILLER = new Set(
  'the and for with your our all page seite von und der die das des les pour avec sur'.split(' '),
);
const MAX_WORDS = 16;

function headingText(root: Root): string {
  const doc = isDocument(root) ? root : root.ownerDocument;
  const title = doc.querySelector('title')?.textContent ?? '';
  const h1 = (isDocument(root) ? doc : root).querySelector('h1')?.textContent ?? '';
  return `${title} ${h1}`;
}

/** A text's words of 3+ letters, lowercased, without filler; numbers are no words. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return [...new Set(words.filter((word) => !FILLER.has(word)))];
}

/** The entity words of a page: its title's and first h1's words of 3+ letters, lowercased. */
export function entityWords(root: Root): string[] {
  return contentWords(headingText(root)).slice(0, MAX_WORDS);
}

/**
 * Why this page is not about what the learning page was about (its title and heading share
 * no word with the learned ones), or null. A page without a title or heading is not judged.
 */
export function entityProblem(root: Root, learned: readonly string[] | undefined): string | null {
  if (!learned || learned.length === 0) return null;
  const words = entityWords(root);
  if (words.length === 0) return null;
  if (words.some((word) => learned.includes(word))) return null;
  return `the page's title and heading (${words.slice(0, 6).join(', ')}) share no word with the learning page's (${learned.slice(0, 6).join(', ')}): another kind of list under the same URL pattern?`;
}
