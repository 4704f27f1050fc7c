// The spec's tests of the sub-agent (docs/specs.md, "the extraction sub-agent" and "error recovery
// and aggregation"), with the scripted model that reads only its prompt: single call, parallel
// chunks merged, dedup across chunks, partial results, and the
// retry of each failure kind.
import { describe, expect, it } from 'vitest';
import { checkOutputSchema, type CheckedSchema } from './schema';
import { ExtractionSubAgent } from './sub-agent';
import { scriptedExtractionLlm, type ScriptedFault } from './testing';

const productSchema = (() => {
  const checked = checkOutputSchema({
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
      required: ['name', 'price'],
    },
  });
  if (!checked.ok) throw new Error(checked.warning);
  return checked.schema;
})();

/** A GFM table of `rows` products: SKU, Product, Price. */
function table(rows: number, start = 0): string {
  const lines = ['## Prices', '', '| SKU | Product | Price |', '| --- | --- | --- |'];
  for (let i = start; i < start + rows; i++) {
    lines.push(`| Q-${1000 + i} | Product number ${i} | $${(i + 1).toFixed(2)} |`);
  }
  return lines.join('\n');
}

const expected = (rows: number, start = 0) =>
  Array.from({ length: rows }, (_, k) => ({
    name: `Product number ${start + k}`,
    price: start + k + 1,
  }));

const context = { tenantId: 't1', taskId: null };

function agent(options: { fault?: ScriptedFault; maxChunkSize?: number; delayMs?: number } = {}) {
  const llm = scriptedExtractionLlm({
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.delayMs ? { delayMs: options.delayMs } : {}),
  });
  const sleeps: number[] = [];
  const sub = new ExtractionSubAgent(
    llm,
    { maxChunkSize: options.maxChunkSize ?? 20_000, minSplitSize: 200 },
    async (ms) => {
      sleeps.push(ms);
    },
  );
  return { llm, sub, sleeps };
}

const run = (
  sub: ExtractionSubAgent,
  markdown: string,
  schema: CheckedSchema | null = productSchema,
) => sub.extract({ markdown, query: 'every product with name and price', schema, context });

describe('ExtractionSubAgent', () => {
  it('extracts small content with one call', async () => {
    const { llm, sub } = agent();
    const out = await run(sub, table(20));
    expect(llm.calls).toHaveLength(1);
    expect(out.data).toEqual(expected(20));
    expect(out).toMatchObject({ chunks: 1, failedChunks: 0, isPartial: false, modelCalls: 1 });
    expect(out.inputTokens).toBeGreaterThan(0);
  });

  it('free text without a schema is one call answering text', async () => {
    const { llm, sub } = agent();
    const out = await run(sub, 'Opening hours are 9 to 5.\n\nClosed on Sundays.', null);
    expect(llm.calls).toHaveLength(1);
    expect(out.data).toContain('Opening hours are 9 to 5.');
  });

  it('chunks large content, runs chunks in parallel (3 at a time) and merges them in order', async () => {
    const { llm, sub } = agent({ maxChunkSize: 2_000, delayMs: 5 });
    const out = await run(sub, table(300));
    expect(out.chunks).toBeGreaterThan(5);
    expect(llm.calls).toHaveLength(out.chunks);
    // Every chunk's table repeats the header: the scripted model finds every row.
    expect(out.data).toEqual(expected(300));
    expect(out.structuralContext.some((c) => /rows \d+-\d+ of 300/.test(c))).toBe(true);
  });

  it('removes items that two chunks both hold', async () => {
    const { sub } = agent({ maxChunkSize: 1_500 });
    const markdown = `${table(30)}\n\n${table(10, 25)}`;
    const out = await run(sub, markdown);
    expect(out.data).toEqual(expected(35));
  });

  it('keeps what other chunks found when one fails after its retries (isPartial)', async () => {
    const failing = (call: { prompt: string }) =>
      call.prompt.includes('Product number 150 ')
        ? new Error('GOOGLE call failed: 500 internal')
        : null;
    const { sub, sleeps } = agent({ maxChunkSize: 2_000, fault: failing });
    const out = await run(sub, table(300));
    expect(out.isPartial).toBe(true);
    expect(out.failedChunks).toBe(1);
    const data = out.data as { name: string }[];
    expect(data.length).toBeGreaterThan(250);
    expect(data.some((item) => item.name === 'Product number 150')).toBe(false);
    const last = out.errors.at(-1);
    expect(last).toMatchObject({ kind: 'provider', retries: 2, retriesExhausted: true });
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('retries a failed call and counts the retries', async () => {
    const { llm, sub } = agent({
      fault: (call) => (call.index === 0 ? new Error('fetch failed: socket hang up') : null),
    });
    const out = await run(sub, table(5));
    expect(llm.calls).toHaveLength(2);
    expect(out.data).toEqual(expected(5));
    expect(out.errors).toEqual([
      expect.objectContaining({ kind: 'provider', retries: 0, retriesExhausted: false }),
    ]);
  });

  it('retries a validation failure with a stricter prompt', async () => {
    const { llm, sub } = agent({
      fault: (call) =>
        call.index === 0
          ? new Error('GOOGLE call for extraction: the answer did not match the schema')
          : null,
    });
    const out = await run(sub, table(3));
    expect(out.data).toEqual(expected(3));
    expect(llm.calls[0]?.system).not.toContain('did not match the schema');
    expect(llm.calls[1]?.system).toContain('did not match the schema');
    expect(out.errors[0]?.kind).toBe('validation');
  });

  it('retries an empty answer once with a hint, then accepts an empty chunk', async () => {
    const once = agent({ fault: (call) => (call.index === 0 ? { answer: { data: [] } } : null) });
    const out = await run(once.sub, table(4));
    expect(out.data).toEqual(expected(4));
    expect(once.llm.calls[1]?.prompt).toContain('Your previous answer was empty');
    expect(out.errors[0]?.kind).toBe('empty');

    const nothing = agent();
    const none = await run(nothing.sub, 'No products here, just words.');
    expect(nothing.llm.calls).toHaveLength(2);
    expect(none).toMatchObject({ data: [], isPartial: false, failedChunks: 0 });
  });

  it('splits a chunk that timed out and extracts its halves', async () => {
    const { llm, sub } = agent({
      maxChunkSize: 20_000,
      fault: (call) =>
        call.prompt.length > 3_000 && call.index === 0
          ? new Error('LLM request timed out after 30000 ms')
          : null,
    });
    const out = await run(sub, table(100));
    expect(out.data).toEqual(expected(100));
    expect(llm.calls.length).toBeGreaterThanOrEqual(3);
    expect(out.errors[0]).toMatchObject({ kind: 'timeout', fallbackUsed: true });
  });

  it('backs off exponentially on rate limits', async () => {
    const { sub, sleeps } = agent({
      fault: (call) => (call.index < 2 ? new Error('429 RESOURCE_EXHAUSTED') : null),
    });
    const out = await run(sub, table(2));
    expect(out.data).toEqual(expected(2));
    expect(sleeps).toEqual([1_000, 2_000]);
    expect(out.errors.map((e) => e.kind)).toEqual(['rate_limit', 'rate_limit']);
  });

  it('never retries a missing model: the caller gets the error', async () => {
    const notConfigured = Object.assign(new Error('No language model is configured.'), {
      name: 'LlmNotConfiguredError',
    });
    const { llm, sub } = agent({ fault: () => notConfigured });
    await expect(run(sub, table(2))).rejects.toThrow('No language model is configured.');
    expect(llm.calls).toHaveLength(1);
  });
});
