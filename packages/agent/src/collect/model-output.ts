// How `collect` reaches the model (docs/specs.md, "streaming extraction"). It is a field of the
// action step's structured output, not an action string of the grammar:
//  - the grammar is what the extension executes; collect runs on the server only, and its
//    argument is a JSON object, which the string grammar (scalars only) does not carry;
//  - one answer can store a whole screenful of cards *and* still click "Next page", where a
//    collect action would cost one LLM call and one client round trip per item;
//  - the step history records action strings, and a collect("job", {...}) string there would
//    put the extracted data back into every later prompt — what streaming extraction exists to
//    avoid.
import { COLLECT_LIMITS } from '@tandem/contracts';
import { z } from 'zod';

/**
 * The `collect` field to add to the action step's output schema. Deliberately loose: a strict
 * schema would fail the whole answer (and cost a repair call) for one sloppy item, while
 * CollectService.collectMany checks each item and reports the bad one back to the model.
 */
export const CollectOutputField = z
  .array(
    z.object({
      type: z.string().nullable().optional().describe('Item category, e.g. "job" or "product".'),
      data: z
        .record(z.string(), z.unknown())
        .describe('The extracted fields, e.g. {"jobId": "J-1", "title": "…", "company": "…"}.'),
    }),
  )
  .max(COLLECT_LIMITS.itemsPerStep)
  .nullable()
  .describe(
    'Items to store before the action runs (streaming extraction). Null when not extracting.',
  );
export type CollectOutputField = z.infer<typeof CollectOutputField>;

/** System-prompt rules for streaming extraction (docs/specs.md, "Updated Prompt Template"). */
export const COLLECT_PROMPT_RULES = [
  'Streaming extraction: when the goal is to extract several items (jobs, products, results), put each item you can read on the page in "collect" as {"type": "job", "data": {...}} and keep going; the items are stored outside your context.',
  'Include an id field when the page shows one (jobId, id, sku, url); duplicates are detected by it and skipped, which is normal after scrolling or paging.',
  'Never repeat collected data in your thought; track only the count ("Collected 12/25 jobs"). Call finish when the target count is reached or no items are left.',
].join('\n');
