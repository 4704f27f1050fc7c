// The extraction node's own decisions, with no store: nothing to do without a pending
// extraction, a failure told to the model when the content did not arrive, and the prompt
// lines it leaves. The extraction itself runs in node.int.test.ts over the real service.
import { describe, expect, it } from 'vitest';
import { applyUpdate, nodeDeps, pageWith, stateWith } from '../../testing/state';
import { extraction, extractionLines } from './node';

describe('extraction node', () => {
  it('does nothing without a pending extraction', async () => {
    expect(await extraction(nodeDeps())(stateWith({ page: pageWith() }))).toEqual({
      pendingExtraction: null,
    });
  });

  it('tells the model when the page content did not arrive, and clears the request', async () => {
    const before = stateWith({
      page: pageWith({ snapshot: { mode: 'outline', text: 'OUTLINE' } }),
      pendingExtraction: { query: 'products' },
    });
    const update = applyUpdate(before, await extraction(nodeDeps())(before));
    expect(update.pendingExtraction).toBeNull();
    expect(update.page?.snapshot).toBeNull();
    expect(update.extractionNotes).toEqual([
      expect.objectContaining({
        pages: 0,
        summary: 'The last extraction failed: the page content did not arrive',
      }),
    ]);
  });

  it('tells the model when its selector matched nothing on the page', async () => {
    const before = stateWith({
      page: pageWith({
        snapshot: { mode: 'content', text: '', error: 'selector: "#grid" matches no element' },
      }),
      pendingExtraction: { query: 'products', cssSelector: '#grid' },
    });
    const update = applyUpdate(before, await extraction(nodeDeps())(before));
    expect(update.extractionNotes.at(-1)?.summary).toBe(
      'The last extraction failed: the page could not be read: selector: "#grid" matches no element',
    );
  });

  it('renders one line per extraction, none without any', () => {
    expect(extractionLines([])).toBe('');
    expect(
      extractionLines([
        {
          extractionId: 'a',
          items: 40,
          pages: 1,
          isPartial: false,
          summary: 'Extracted 40 items.',
        },
      ]),
    ).toBe('Extractions in this task (data stored, not shown):\n- Extracted 40 items.');
  });
});
