// The extraction feature's fields of the interact state (state.ts gathers every feature's).
import type { ExtractRequest } from '@tandem/contracts';
import { replace } from '../../channel';

/**
 * What the prompts know of one extraction: counts and ids, never the data (docs/specs.md,
 * "extraction overhaul").
 */
export interface ExtractionNote {
  extractionId: string;
  items: number | null;
  pages: number;
  isPartial: boolean;
  /** The model-facing line of its last page ("Extracted 40 items … So far: 80 unique …"). */
  summary: string;
}

/** The note of an extraction that failed: what it says is the reason, and it stored nothing. */
export const FAILED_EXTRACTION = 'failed';

export const extractionState = {
  /**
   * The extraction the model asked for (docs/specs.md, "extraction overhaul"), waiting for the page
   * content it needs: the client answers the content snapshot and the extraction node runs it.
   */
  pendingExtraction: replace<ExtractRequest | null>(() => null),
  /**
   * One line per extraction of the task (its extractionId's running summary), replaced as
   * pages are added: what the prompts read. The data itself is in the store.
   */
  extractionNotes: replace<ExtractionNote[]>(() => []),
};
