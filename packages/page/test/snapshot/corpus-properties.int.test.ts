// Properties of the outline over every page of data/pages-dev, parsed server side (jsdom):
//  - no xpath step is a bare div/span, carries a utility/hashed class or a generated id;
//  - every entry's xpath resolves back to the element(s) it names (the `selector` resolver),
//    and the element matches its last step read as a CSS selector;
//  - content mode runs (on a fifth of the pages), and its Markdown tables are GFM tables.
// Prints the time per page; jsdom parsing dominates it.
import { afterAll, describe, expect, it } from 'vitest';
import { parseHtml, releaseDocument, snapshotParsed } from '../../src/server';
import { buildOutline, flattenOutline } from '../../src/snapshot/outline-model';
import { renderOutline } from '../../src/snapshot/outline-text';
import { isGeneratedId, isUtilityClass } from '../../src/snapshot/xpath-tokens';
import { parseStep, XpathBuilder, type Step } from '../../src/snapshot/xpath';
import { gfmTables } from '../helpers/gfm';
import { pageNames, pageUrl, pagesDevMissing, readPage } from './pages-dev';

const missing = pagesDevMissing();
if (missing) console.warn(missing);
const names = missing ? [] : pageNames();
const BATCH = 50;
const batches = Array.from({ length: Math.ceil(names.length / BATCH) }, (_, i) =>
  names.slice(i * BATCH, (i + 1) * BATCH),
);

/**
 * Independent of the classifiers under test: patterns that must never reach an xpath whatever
 * the classifiers say (Tailwind variants and arbitrary values, CSS-in-JS hashes, framework ids).
 */
const NEVER_IN_XPATH = [
  /[.#][^/[]*:/, // md:flex, :r1:
  /\.css-[a-z0-9]+/i,
  /\.sc-[A-Za-z0-9]+/,
  /[.#]_[A-Za-z0-9]/,
  /\.(?:p|m|px|py|mt|mb|ml|mr|pt|pb|w|h|gap)-\d/,
  /\.(?:flex|hidden|block|container|row|clearfix)(?:\/|\[|$)/,
  /#ember\d/,
  /#[0-9a-f]{8}-[0-9a-f]{4}/i,
  /[.#][^/[]*\d{4,}/,
  /\/(?:div|span)(?:\/|\[\d+\]|$)/,
];

/** A step as the CSS compound selector it stands for (step tokens need no escaping). */
const cssOf = (step: Step): string =>
  step.tag +
  (step.id === undefined ? '' : `#${step.id}`) +
  (step.cls === undefined ? '' : `.${step.cls}`) +
  (step.role === undefined ? '' : `[role="${step.role}"]`);

let parseMs = 0;
let snapshotMs = 0;
let pages = 0;
let lines = 0;

afterAll(() => {
  if (pages === 0) return;
  console.log(
    `corpus properties: ${pages} pages, ${lines} outline lines; jsdom parse ${Math.round(parseMs)} ms ` +
      `(${(parseMs / pages).toFixed(0)} ms/page), outline+resolve+content ${Math.round(snapshotMs)} ms ` +
      `(${(snapshotMs / pages).toFixed(0)} ms/page)`,
  );
});

describe.skipIf(missing !== undefined)('outline over data/pages-dev', () => {
  it.each(batches.map((batch) => [`${batch[0]}..${batch[batch.length - 1]}`, batch] as const))(
    'pages %s: clean xpaths that resolve to their elements',
    (_label, batch) => {
      for (const name of batch) {
        const html = readPage(name);
        let start = performance.now();
        const doc = parseHtml(html);
        parseMs += performance.now() - start;
        start = performance.now();

        // Checked with plain code and asserted once per page: hundreds of thousands of
        // expect() calls would cost more than the snapshots.
        const failures: string[] = [];
        const outline = buildOutline(doc, { layout: false, includeHidden: false });
        const resolver = new XpathBuilder(doc);
        for (const entry of flattenOutline(outline.entries)) {
          const xpath = entry.xpath;
          const fail = (why: string) => failures.push(`${name} ${entry.role} ${xpath}: ${why}`);
          for (const pattern of NEVER_IN_XPATH) if (pattern.test(xpath)) fail(`matches ${pattern}`);
          for (const text of xpath === '/' ? [] : xpath.slice(1).split('/')) {
            const step = parseStep(text);
            if (!step) fail(`step ${text} does not parse`);
            else {
              if (step.id !== undefined && isGeneratedId(step.id)) fail(`generated id ${step.id}`);
              if (step.cls !== undefined && isUtilityClass(step.cls))
                fail(`utility class ${step.cls}`);
              const generic = step.tag === 'div' || step.tag === 'span' || step.tag.includes('-');
              if (generic && !(step.id ?? step.cls ?? step.role)) fail(`bare ${step.tag}`);
            }
          }
          const resolved = new Set(resolver.resolve(xpath));
          if (!entry.els.every((el) => resolved.has(el))) fail('does not resolve to its element');
          // Building and resolving share one sibling lookup. Checked here independently, with
          // the engine's own selector matching (a step's text is a CSS compound selector): the
          // last step matches the element, and its [n] counts the siblings that match it too.
          const lastText = xpath === '/' ? '' : xpath.slice(xpath.lastIndexOf('/') + 1);
          const last = parseStep(lastText);
          const first = entry.els[0];
          if (last && first) {
            const selector = cssOf({ ...last, index: undefined });
            const parent = resolver.parentOf(first);
            const same = parent
              ? resolver.meaningfulChildren(parent).filter((el) => el.matches(selector))
              : [];
            if (!entry.els.every((el) => same.includes(el))) fail(`not among ${selector} siblings`);
            // Unindexed, the step names all of them (a paragraph group is some of those).
            if (last.index !== undefined && same[last.index - 1] !== first)
              fail(`${lastText} is not its position among ${same.length} ${selector} siblings`);
          }
          // An indexed last step names exactly one element.
          if (/\[\d+\]$/.test(xpath) && resolved.size !== 1) fail(`resolves to ${resolved.size}`);
        }

        const text = renderOutline(outline, {
          page: { url: pageUrl(name), title: '' },
          filter: () => true,
        });
        const printed = text.split('\n').slice(3);
        lines += printed.length;
        for (const line of printed) {
          const xpath = / (\/\S*)$/.exec(line)?.[1];
          if (xpath && resolver.resolve(xpath).length === 0)
            failures.push(`${name}: ${line} resolves to nothing`);
        }
        expect(failures).toEqual([]);
        // Content mode (turndown) costs as much as the rest; a fifth of the pages covers it.
        const content =
          pages % 5 !== 0
            ? undefined
            : snapshotParsed(doc, {
                mode: 'content',
                format: 'markdown',
                grep: { pattern: '^(MAIN|ARTICLE) ' },
                url: pageUrl(name),
              });
        if (content !== undefined) {
          expect(content).toMatch(
            /^<!-- source: .*-->\n[\s\S]*<!-- end: \d+ words? extracted -->$/,
          );
          gfmTables(content);
        }
        snapshotMs += performance.now() - start;
        releaseDocument(doc);
        pages++;
      }
    },
    300_000,
  );
});
