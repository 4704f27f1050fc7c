// The fake model's catalogue scenario ("Extract every product as JSON with name, price and
// rating"): bench/tasks' scripted model on its extraction script (docs/specs.md, "extraction
// overhaul"): on each page it asks the server to extract, with the product schema on the first
// page and the extraction_id it was given on the next ones, then follows "Next page" until
// there is none. It reads only its prompt: the summaries the server wrote, the URL and the
// element list. The server chunks, extracts, replays and aggregates.
import { PRODUCT_LIST_SCHEMA } from '@tandem/demo-sites';
import { extractAction, plan, type Scenario } from '@tandem/agent/testing/model-double';

const SCRIPT = {
  kind: 'extract',
  query: 'every product with name, price and rating',
  schema: PRODUCT_LIST_SCHEMA,
  allPages: true,
} as const;

export const CATALOG: Scenario = {
  applies: ({ goal }) => /every product/i.test(goal),
  answers: {
    planning: plan('Extract every product', ['Extract the products of each page, page by page']),
    action_generation: ({ prompt }) => extractAction(SCRIPT, prompt),
    finalize: ({ prompt }) => ({
      answer: /finish\("([^"]*)"\)/.exec(prompt)?.[1] ?? 'Extracted every product.',
    }),
  },
};
