// Structured extraction in action generation (docs/specs.md, "extraction overhaul"): a task that
// extracts gets the rules, its extractions' summaries and the strategies known for the page;
// an answer with `extract` asks the client for the page's content, and the extraction node runs
// on it when it arrives, then the model reasons again.
import type { ActionPart } from '../action-generation/part';
import { logFor } from '../node-context';
import { askSnapshot, canReadPage } from '../../page-reads/read-page';
import {
  EXTRACT_PROMPT_RULES,
  extractionSnapshot,
  isExtracting,
  knownStrategiesLine,
  parseModelExtract,
} from './model-extract';
import { extractionLines } from './node';

export const extractionPart: ActionPart = {
  name: 'extraction',
  async prepare(deps, state, page) {
    if (!isExtracting(deps, state)) return {};
    const extractions = [
      extractionLines(state.extractionNotes),
      await knownStrategiesLine(deps, state, page.url),
    ]
      .filter(Boolean)
      .join('\n\n');
    return { system: EXTRACT_PROMPT_RULES, sections: () => ({ extractions }) };
  },
  answer(deps, turn) {
    const extract = turn.out.extract;
    if (!extract || !deps.extraction || !canReadPage(deps, turn.state)) return null;
    return {
      decide: async (now) => {
        const parsed = parseModelExtract(extract);
        if (!parsed.ok) return { rejected: parsed.reason };
        const request = await extractionSnapshot(deps, now.state, parsed.request);
        logFor(deps, now.state, 'action_generation').info('extracting', {
          extractionId: parsed.request.extractionId ?? null,
          selector: request.selector ?? null,
        });
        return askSnapshot(now, request, { pendingExtraction: parsed.request });
      },
    };
  },
};
