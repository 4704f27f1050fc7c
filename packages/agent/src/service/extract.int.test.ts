// Structured extraction in the interact loop (docs/specs.md, "schema-enforced extraction"): the
// model answers `extract`, the client is asked for the page content (an HTML content snapshot), the
// extraction runs on the server and the data goes to the store; the next prompt reads a summary,
// never the data. On the next page the model reuses the extraction_id and the strategy replays
// without a model call; the response that ends the task carries the merged data.
import type { SemanticNodeV3 } from '@tandem/contracts';
import {
  answerFromPrompt,
  catalogPageHtml,
  productListSchema,
  testProduct,
} from '@tandem/extraction/testing';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest, type TestAgent } from '../testing/harness';

const noAction = { thought: '', confidence: 0.9, chain: null };
const PRODUCTS = productListSchema();
const tree: SemanticNodeV3[] = [{ i: 'next', r: 'link', n: 'Next page' }];
const url = (page: number) => `https://shop.test/catalog/?page=${page}`;
const extractionStep = {
  node: 'extraction' as const,
  output: (request: { prompt: string }) => answerFromPrompt(request.prompt),
};

function idIn(prompt: string | undefined): string {
  const id = /extraction_id=([A-Za-z0-9_-]+)/.exec(prompt ?? '')?.[1];
  if (!id) throw new Error(`no extraction_id in the prompt:\n${prompt}`);
  return id;
}

async function extractPage(
  agent: TestAgent,
  page: number,
  continuation: Record<string, unknown>,
): Promise<void> {
  const asked = await agent.act(pageRequest(url(page), tree, continuation));
  expect(asked.action).toBeUndefined();
  expect(asked.needs_snapshot).toEqual({ mode: 'content', format: 'html' });
  expect(asked.actionSummary).toBe('Read the page content to extract data');
}

describe('extract in the loop', () => {
  it('extracts page 1 with the model, replays page 2, and ends with the merged data', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep('the catalogue is on the page'),
        {
          node: 'planning',
          output: {
            goal: 'extract products',
            steps: [{ description: 'Extract the products, page by page', refinable: false }],
          },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            action: 'wait(1)',
            extract: { query: 'every product with name, price and rating', outputSchema: PRODUCTS },
          },
        },
        extractionStep,
        { node: 'action_generation', output: { ...noAction, action: 'click("next")' } },
        {
          node: 'outcome_prediction',
          output: { description: 'page 2 loads', urlShouldChange: true, nextGoal: null },
        },
      ],
    });
    const first = await agent.act(
      pageRequest(url(1), tree, {
        query: 'Extract every product as JSON with name, price and rating',
      }),
    );
    expect(first.needs_snapshot).toEqual({ mode: 'content', format: 'html' });
    const continuation = {
      taskId: first.taskId,
      sessionId: first.sessionId,
      lastActionStatus: 'success' as const,
    };

    const clicked = await agent.act(
      pageRequest(url(1), tree, {
        ...continuation,
        snapshot: { mode: 'content', text: catalogPageHtml(0, 40, 1) },
      }),
    );
    expect(clicked.action).toBe('click("next")');
    expect(clicked.extractions).toEqual([
      expect.objectContaining({ items: 40, pages: 1, isPartial: false }),
    ]);
    const prompts = agent.scripted?.callsFor('action_generation') ?? [];
    const afterExtraction = prompts[1]?.prompt ?? '';
    // The summary reaches the model; the data and the page content do not.
    expect(afterExtraction).toMatch(/Extracted 40 items with 1 model call\./);
    expect(afterExtraction).not.toContain(testProduct(0).name);
    expect(afterExtraction).not.toContain('product-card');
    expect(prompts[0]?.system).toContain('Structured extraction');
    const id = idIn(afterExtraction);

    // Page 2: the click is verified, the model reuses the id, the strategy replays.
    agent.scripted?.push(
      {
        node: 'verification',
        output: {
          action_succeeded: true,
          task_completed: false,
          confidence: 0.9,
          reason: 'page 2',
        },
      },
      {
        node: 'action_generation',
        output: { ...noAction, action: 'wait(1)', extract: { extractionId: id } },
      },
      // The recipe's first replay is cross-checked by the model on a slice of the page.
      extractionStep,
      {
        node: 'action_generation',
        output: { ...noAction, action: 'finish("Extracted 80 products.")' },
      },
    );
    await extractPage(agent, 2, continuation);
    const done = await agent.act(
      pageRequest(url(2), tree, {
        ...continuation,
        snapshot: { mode: 'content', text: catalogPageHtml(40, 40, 2) },
      }),
    );
    expect(done.status).toBe('completed');
    expect(agent.scripted?.callsFor('extraction')).toHaveLength(2);
    const last = agent.scripted?.callsFor('action_generation').at(-1)?.prompt ?? '';
    expect(last).toContain('Extracted 40 items, replayed (checked');
    expect(last).toContain(`80 unique items from 2 pages, extraction_id=${id}`);
    expect(done.extractedData).toEqual([
      expect.objectContaining({ extractionId: id, items: 80, pages: 2, truncated: false }),
    ]);
    expect((done.extractedData?.[0]?.data as unknown[]).length).toBe(80);

    const usage = await agent.store.tokenUsage.list(agent.caller.tenantId, {
      taskId: first.taskId,
    });
    expect(usage.filter((u) => u.actionType === 'EXTRACTION')).toHaveLength(1);
    expect(usage.filter((u) => u.actionType === 'EXTRACTION_CHECK')).toHaveLength(1);
  });

  it('tells the model an invalid extract and takes its corrected answer', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        {
          node: 'planning',
          output: { goal: 'g', steps: [{ description: 'Extract', refinable: false }] },
        },
        {
          node: 'action_generation',
          output: { ...noAction, action: 'wait(1)', extract: { cssSelector: '#x' } },
        },
        {
          node: 'action_generation',
          output: {
            ...noAction,
            action: 'wait(1)',
            extract: { query: 'products', cssSelector: '#grid' },
          },
        },
      ],
    });
    const first = await agent.act(pageRequest(url(1), tree, { query: 'Extract every product' }));
    expect(first.needs_snapshot).toEqual({ mode: 'content', format: 'html', selector: '#grid' });
    const feedback = agent.scripted?.callsFor('action_generation')[1]?.prompt ?? '';
    expect(feedback).toContain('query is required unless extractionId names an earlier extraction');
  });
});
