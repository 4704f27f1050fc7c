// HTML budgets, counted by htmlparser2's tokenizer before any DOM is built: jsdom and
// our own tree walks recurse per nesting level, so 5,000 nested <div> (55 KB) overflowed the
// stack and 50,000 took the server's event loop for 30 s. The tokenizer is a linear state
// machine; counting stops at the first element over a budget, which also keeps the parser's
// stack of open elements (searched on each end tag) at most the depth budget long.
// `checkHtml` counts on its own (before jsdom, whose parser is not htmlparser2);
// `parseHtmlWithinBudget` counts while htmlparser2 builds its own light DOM, in one pass.
import {
  checkLimit,
  describeLimit,
  formatAmount,
  InputTooComplexError,
  type InputLimits,
} from '@tandem/contracts';
import { DomHandler, type Document } from 'domhandler';
import { Parser, type ParserOptions } from 'htmlparser2';

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

/** Counts open and close events against the depth and element budgets. */
class Counter {
  readonly stats: HtmlStats;
  private open = 0;

  constructor(
    html: string,
    private readonly limits: InputLimits,
    private readonly what: string,
  ) {
    const bytes = utf8Bytes(html);
    checkLimit(limits, 'htmlMaxMb', Math.ceil((bytes / MB) * 10) / 10, `${what} is`);
    this.stats = { bytes, elements: 0, depth: 0 };
  }

  opened(): void {
    const { stats, limits } = this;
    stats.elements++;
    this.open++;
    if (this.open > stats.depth) stats.depth = this.open;
    if (this.open > limits.htmlMaxDepth) {
      this.refuse(
        'htmlMaxDepth',
        `nests elements more than ${formatAmount('htmlMaxDepth', limits.htmlMaxDepth)} deep`,
      );
    }
    if (stats.elements > limits.htmlMaxElements) {
      this.refuse(
        'htmlMaxElements',
        `has more than ${formatAmount('htmlMaxElements', limits.htmlMaxElements)}`,
      );
    }
  }

  closed(): void {
    this.open--;
  }

  /** Thrown from inside a parser callback, which stops the parse there. */
  private refuse(name: 'htmlMaxDepth' | 'htmlMaxElements', found: string): never {
    throw new InputTooComplexError(
      name,
      `${this.what} ${found}; the limit is ${describeLimit(name, this.limits[name])}.`,
    );
  }
}

/**
 * Counts `html`'s elements and nesting within `limits` and throws InputTooComplexError, naming
 * the limit and its setting, at the first one it exceeds: size (HTML_MAX_MB), depth
 * (HTML_MAX_DEPTH) or elements (HTML_MAX_ELEMENTS). `what` names the input in the message.
 */
export function checkHtml(html: string, limits: InputLimits, what = 'The page'): HtmlStats {
  const counter = new Counter(html, limits, what);
  // onopentagname, not onopentag: no attribute objects are built for a count.
  new Parser(
    { onopentagname: () => counter.opened(), onclosetag: () => counter.closed() },
    { decodeEntities: false },
  ).end(html);
  return counter.stats;
}

/** A DomHandler that counts what it is given against the budgets as the tree grows. */
class CountingHandler extends DomHandler {
  constructor(private readonly counter: Counter) {
    super();
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.counter.opened();
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.counter.closed();
    super.onclosetag();
  }
}

/**
 * htmlparser2's DOM of `html`, built only as far as the budgets allow: the same refusal as
 * checkHtml, without a second pass over the page.
 */
export function parseHtmlWithinBudget(
  html: string,
  limits: InputLimits,
  options: ParserOptions = {},
  what = 'The page',
): Document {
  const handler = new CountingHandler(new Counter(html, limits, what));
  new Parser(handler, options).end(html);
  return handler.root;
}
