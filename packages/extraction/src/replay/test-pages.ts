// The replay tests' pages (imported by *.test.ts only): parsed with the server's DOM and
// released after each test, so a suite of many pages holds only the current test's.
import { parseHtml, releaseDocument } from '@tandem/page/server';
import { afterEach } from 'vitest';

const open: Document[] = [];
afterEach(() => {
  for (const doc of open.splice(0)) releaseDocument(doc);
});

/** `html` parsed for the current test. */
export function page(html: string): Document {
  const doc = parseHtml(html);
  open.push(doc);
  return doc;
}
