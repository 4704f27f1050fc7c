// The fake model's catalogue scenario ("Extract every product as JSON with name, price and
// rating"): on each page it asks the server to extract (docs/specs.md, "extraction overhaul"), with
// the product schema on the first page and the extraction_id it was given on the next ones, then
// follows "Next page" until there is none. It reads only its prompt: the summaries the server
// wrote, the URL and the element list. The server chunks, extracts, replays and aggregates.
import { PRODUCT_LIST_SCHEMA } from '@tandem/demo-sites';
import { elementsIn } from '@tandem/agent/testing/model-double';

export const isCatalogGoal = (goal: string) => /every product/i.test(goal);

/** The running summary of the extraction, as the server wrote it into the prompt. */
function extractionSummary(prompt: string): { id: string; items: number; pages: number } | null {
  const match = /(\d+) unique items? from (\d+) pages?, extraction_id=([A-Za-z0-9_-]+)/.exec(
    prompt,
  );
  if (!match) return null;
  return { items: Number(match[1]), pages: Number(match[2]), id: match[3] as string };
}

const pageNumber = (prompt: string) => Number(/URL: \S*[?&]page=(\d+)/.exec(prompt)?.[1] ?? 1);

function actionGeneration(prompt: string): unknown {
  const summary = extractionSummary(prompt);
  const page = pageNumber(prompt);
  if (!summary) {
    return {
      thought: 'Extract the products of this page as structured data.',
      action: 'wait(1)',
      chain: null,
      confidence: 0.9,
      extract: {
        query: 'every product with name, price and rating',
        outputSchema: PRODUCT_LIST_SCHEMA,
      },
    };
  }
  if (summary.pages < page) {
    return {
      thought: `Page ${page} has the same layout: reuse extraction ${summary.id}.`,
      action: 'wait(1)',
      chain: null,
      confidence: 0.9,
      extract: { extractionId: summary.id },
    };
  }
  const next = elementsIn(prompt).find((e) => /^next page$/i.test(e.name));
  if (next) {
    return {
      thought: `${summary.items} products so far; go to the next page.`,
      action: `click("${next.id}")`,
      chain: null,
      confidence: 0.9,
    };
  }
  // The list is longer than the screen: the pagination is further down, like a person would
  // find it. The title says how many pages there are.
  const of = /page (\d+) of (\d+)/i.exec(prompt);
  if (of && Number(of[1]) < Number(of[2])) {
    return {
      thought: 'The next page link is below; scroll down to it.',
      action: 'scroll("down")',
      chain: null,
      confidence: 0.9,
    };
  }
  return {
    thought: 'No next page: every page was extracted.',
    action: `finish("Extracted ${summary.items} unique products from ${summary.pages} ${summary.pages === 1 ? 'page' : 'pages'}.")`,
    chain: null,
    confidence: 0.9,
  };
}

export function answerCatalog(node: string, prompt: string): unknown {
  switch (node) {
    case 'replanning':
    case 'planning':
      return {
        goal: 'Extract every product',
        steps: [
          { description: 'Extract the products of each page, page by page', refinable: false },
        ],
      };
    case 'action_generation':
      return actionGeneration(prompt);
    case 'finalize':
      return { answer: /finish\("([^"]*)"\)/.exec(prompt)?.[1] ?? 'Extracted every product.' };
    default:
      return null;
  }
}
