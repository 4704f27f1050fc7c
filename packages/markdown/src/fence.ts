// Fences for Markdown code blocks, shared by the converters that turn pages into Markdown
// (the page snapshot's and knowledge ingestion's).

/** The longest run of backticks in a text: a fence or code span must be longer. */
export function longestBacktickRun(code: string): number {
  let longest = 0;
  for (const match of code.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** A fence longer than any backtick run in the code, so the code cannot close it. */
export const fenceFor = (code: string): string =>
  '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
