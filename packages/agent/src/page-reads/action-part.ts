// Page reads in action generation: an answer with `readPage` asks the client for the snapshot.
import type { SnapshotRequest } from '@tandem/contracts';
import type { ActionPart } from '../nodes/action-generation/part';
import { logFor } from '../nodes/node-context';
import { askSnapshot, canReadPage } from './read-page';

export const pageReadsPart: ActionPart = {
  name: 'page-reads',
  answer(deps, turn) {
    const read = turn.out.readPage;
    if (!read || !canReadPage(deps, turn.state)) return null;
    const request: SnapshotRequest = {
      mode: read.mode,
      // Content reads as Markdown: headings, lists and tables are what a model reads best.
      ...(read.mode === 'content' ? { format: 'markdown' as const } : {}),
      ...(read.grep ? { grep: read.grep } : {}),
      ...(read.selector ? { selector: read.selector } : {}),
    };
    return {
      decide: (now) => {
        logFor(deps, now.state, 'action_generation').info('reading the page', {
          mode: request.mode,
        });
        return askSnapshot(now, request);
      },
    };
  },
};
