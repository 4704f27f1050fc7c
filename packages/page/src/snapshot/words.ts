// Word counting as the pages-dev benchmark tokenizes (Python's \w+ over Unicode): every run
// of letters, digits and underscores is one word, whatever the script.
const WORD = /[\p{L}\p{N}_]+/gu;

export function countWords(text: string): number {
  let count = 0;
  WORD.lastIndex = 0;
  // test() advances lastIndex like exec() without building a match array per word: this runs
  // over every text node of the page.
  while (WORD.test(text)) count++;
  return count;
}

/** The first `max` words of a text, with an ellipsis when more follow. */
export function firstWords(text: string, max: number): { text: string; truncated: boolean } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= max) return { text: words.join(' '), truncated: false };
  return { text: `${words.slice(0, max).join(' ')}…`, truncated: true };
}

/** Plural-aware count: "1 item", "3 items". */
export const counted = (n: number, noun: string, plural = `${noun}s`): string =>
  `${n} ${n === 1 ? noun : plural}`;
