// `grep` (docs/specs.md, "grep and selector"): filters snapshot lines by their text, xpaths
// included, like grep(1): a regex with `|` alternatives by default, -i, -v and -F as options.
import type { SnapshotGrep } from '@tandem/contracts';

export type LineFilter = (line: string) => boolean;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line test for a grep option; matches everything when there is no grep. */
export function compileGrep(grep: SnapshotGrep | undefined): LineFilter {
  if (grep === undefined) return () => true;
  const options = typeof grep === 'string' ? { pattern: grep } : grep;
  const source = options.fixedStrings ? escapeRegExp(options.pattern) : options.pattern;
  let regex: RegExp;
  try {
    regex = new RegExp(source, options.ignoreCase ? 'iu' : 'u');
  } catch {
    // Without the u flag more legacy patterns compile (e.g. "\-"), as grep's would.
    try {
      regex = new RegExp(source, options.ignoreCase ? 'i' : '');
    } catch (error) {
      throw new Error(
        `grep: invalid pattern ${JSON.stringify(options.pattern)}: ${(error as Error).message}`,
      );
    }
  }
  const invert = options.invert === true;
  return (line) => regex.test(line) !== invert;
}

/** How the grep is shown in headers: the pattern with grep(1)'s flags. */
export function describeGrep(grep: SnapshotGrep): string {
  if (typeof grep === 'string') return grep;
  const flags = [
    grep.ignoreCase ? 'i' : '',
    grep.invert ? 'v' : '',
    grep.fixedStrings ? 'F' : '',
  ].join('');
  return flags ? `${grep.pattern} (-${flags})` : grep.pattern;
}
