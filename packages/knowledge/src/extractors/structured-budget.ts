import { checkLimit, type InputLimits } from '@tandem/contracts';
import { isAlias, isCollection, isPair, type Document, type Node } from 'yaml';
import { ParseError } from './errors';

/** Counts nesting and values against STRUCTURED_MAX_DEPTH and STRUCTURED_MAX_NODES as it goes. */
class StructureBudget {
  private values = 0;
  constructor(
    private readonly limits: InputLimits,
    private readonly format: string,
  ) {}

  enter(depth: number): void {
    checkLimit(this.limits, 'structuredMaxDepth', depth, `The ${this.format} file nests at least`);
  }

  value(): void {
    this.values += 1;
    checkLimit(
      this.limits,
      'structuredMaxNodes',
      this.values,
      `The ${this.format} file has at least`,
    );
  }
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** A JSON container on the scan's stack: arrays count their elements, objects their members. */
const ARRAY = 1;
const OBJECT = 2;

const isSpace = (code: number): boolean =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * Depth and values of a JSON text, read without parsing it, before JSON.parse and the
 * recursive rendering (JSON.stringify, YAML) that would overflow the stack on deep nesting.
 * Values are object members (one per `:`), array elements and the root; strings are skipped.
 * Invalid JSON is left for JSON.parse to report.
 */
export function checkJsonBudget(text: string, limits: InputLimits): void {
  const budget = new StructureBudget(limits, 'JSON');
  const stack: number[] = [];
  let inString = false;
  let arrayOpened = false;
  budget.value();
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (isSpace(code)) continue;
    if (arrayOpened) {
      arrayOpened = false;
      if (code !== 0x5d) budget.value(); // the first element of a non-empty array
    }
    if (code === QUOTE) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      stack.push(code === 0x5b ? ARRAY : OBJECT);
      budget.enter(stack.length);
      arrayOpened = code === 0x5b;
    } else if (code === 0x7d || code === 0x5d) stack.pop();
    else if (code === 0x3a) budget.value();
    else if (code === 0x2c && stack[stack.length - 1] === ARRAY) budget.value();
  }
}

/**
 * Depth and values of a composed YAML document, walked with an explicit stack before toJS.
 * An alias counts as one value: toJS shares the anchored object rather than copying it, and
 * yaml's maxAliasCount refuses documents whose aliases would expand without bound.
 */
export function checkYamlBudget(document: Document, limits: InputLimits): void {
  const budget = new StructureBudget(limits, 'YAML');
  const pending: [Node | null | undefined, number][] = [[document.contents, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (!node) continue;
    budget.value();
    if (isAlias(node) || !isCollection(node)) continue;
    budget.enter(depth + 1);
    for (const item of node.items) {
      if (isPair(item)) {
        if (isCollection(item.key)) pending.push([item.key, depth + 1]);
        pending.push([item.value as Node | null, depth + 1]);
      } else {
        pending.push([item as Node, depth + 1]);
      }
    }
  }
}

/** Where the markup construct starting at `start` ends (just past it), or -1 if it never does. */
function skipMarkup(text: string, start: number): number {
  if (text.startsWith('<!--', start)) return endAfter(text, '-->', start + 4);
  if (text.startsWith('<![CDATA[', start)) return endAfter(text, ']]>', start + 9);
  if (text.startsWith('<?', start)) return endAfter(text, '?>', start + 2);
  // A DOCTYPE: its internal subset (in brackets) may hold `>` of its own.
  const close = text.indexOf('>', start);
  const subset = text.indexOf('[', start);
  if (subset !== -1 && subset < close) return endAfter(text, ']>', subset);
  return close === -1 ? -1 : close + 1;
}

function endAfter(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? -1 : at + marker.length;
}

/** The end (index of `>`) of the tag starting at `start`, quotes in attribute values respected. */
function tagEnd(text: string, start: number): number {
  let quote = 0;
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (quote) {
      if (code === quote) quote = 0;
    } else if (code === 0x22 || code === 0x27) quote = code;
    else if (code === 0x3e) return index;
  }
  return -1;
}

/**
 * Elements and their nesting in an XML text, counted tag by tag before the parser builds a tree
 * (and renders it recursively). Runs after validation, so the markup is well formed.
 */
export function checkXmlBudget(text: string, limits: InputLimits): void {
  const budget = new StructureBudget(limits, 'XML');
  let depth = 0;
  for (let start = text.indexOf('<'); start !== -1;) {
    const next = text.charCodeAt(start + 1);
    let end: number;
    if (next === 0x21 || next === 0x3f) {
      end = skipMarkup(text, start);
    } else {
      const close = tagEnd(text, start);
      if (close === -1) break;
      if (next === 0x2f) depth -= 1;
      else {
        budget.value();
        if (text.charCodeAt(close - 1) !== 0x2f) budget.enter((depth += 1));
      }
      end = close + 1;
    }
    if (end === -1) break;
    start = text.indexOf('<', end);
  }
}

/**
 * Entity declarations are where XML's dangers live: external entities (XXE) read other files or
 * URLs, and entities defined by entities ("billion laughs") expand without bound. Documents
 * that people upload to read do not need them, so a DOCTYPE that declares any is refused.
 */
export function refuseXmlEntities(text: string): void {
  const doctype = text.search(/<!DOCTYPE/i);
  if (doctype === -1) return;
  const entity = /<!ENTITY/gi;
  entity.lastIndex = doctype;
  if (!entity.test(text)) return;
  throw new ParseError(
    'XML',
    'its DOCTYPE declares entities (<!ENTITY …>), which are not read: they can pull in other files or expand without bound.',
  );
}
