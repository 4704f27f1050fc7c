// HTML budgets (issue 27), counted by htmlparser2's tokenizer before any DOM is built: jsdom and
// our own tree walks recurse per nesting level, so 5,000 nested <div> (55 KB) overflowed the
// stack and 50,000 took the server's event loop for 30 s. The tokenizer is a linear state
// machine; the scan stops at the first element over a budget, which also keeps the parser's
// stack of open elements (searched on each end tag) at most the depth budget long.
import {
  checkLimit,
  formatAmount,
  InputTooComplexError,
  describeLimit,
  type InputLimits,
} from '@tandem/contracts';
import { Parser } from 'htmlparser2';

export interface HtmlStats {
  bytes: number;
  elements: number;
  /** Deepest element nesting seen (the root element is depth 1). */
  depth: number;
}

const MB = 1024 * 1024;

/** UTF-8 size without encoding the whole page again (this module also runs in browsers). */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 more than its two code units.
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/** Stops the tokenizer from inside a callback: the scan has seen enough. */
class OverBudget extends Error {
  constructor(readonly refusal: InputTooComplexError) {
    super(refusal.message);
  }
}

/**
 * Counts `html`'s elements and nesting within `limits` and throws InputTooComplexError, naming
 * the limit and its setting, at the first one it exceeds: size (HTML_MAX_MB), depth
 * (HTML_MAX_DEPTH) or elements (HTML_MAX_ELEMENTS). `what` names the input in the message.
 */
export function checkHtml(html: string, limits: InputLimits, what = 'The page'): HtmlStats {
  const bytes = utf8Bytes(html);
  checkLimit(limits, 'htmlMaxMb', Math.ceil((bytes / MB) * 10) / 10, `${what} is`);
  const stats: HtmlStats = { bytes, elements: 0, depth: 0 };
  let open = 0;
  const refuse = (name: 'htmlMaxDepth' | 'htmlMaxElements', found: string) => {
    throw new OverBudget(
      new InputTooComplexError(
        name,
        `${what} ${found}; the limit is ${describeLimit(name, limits[name])}.`,
      ),
    );
  };
  const parser = new Parser(
    {
      onopentag() {
        stats.elements++;
        open++;
        if (open > stats.depth) stats.depth = open;
        if (open > limits.htmlMaxDepth) {
          refuse(
            'htmlMaxDepth',
            `nests elements more than ${formatAmount('htmlMaxDepth', limits.htmlMaxDepth)} deep`,
          );
        }
        if (stats.elements > limits.htmlMaxElements) {
          refuse(
            'htmlMaxElements',
            `has more than ${formatAmount('htmlMaxElements', limits.htmlMaxElements)}`,
          );
        }
      },
      onclosetag() {
        open--;
      },
    },
    { decodeEntities: false },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error instanceof OverBudget) throw error.refusal;
    throw error;
  }
  return stats;
}
