// The pool with real worker threads running the real parsers: answers, budgets, a job over its
// time or memory costing that job only, and the calling thread left free meanwhile.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_INPUT_LIMITS, InputTooComplexError } from '@tandem/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { poolPageReader, poolParsers } from './adapters';
import { ParsePool } from './pool';

const pool = new ParsePool({
  threads: 2,
  heapMb: 512,
  timeoutMs: 60_000,
  limits: DEFAULT_INPUT_LIMITS,
});
afterAll(() => pool.close());

const products = (n: number) =>
  `<html><body><h1>Chairs</h1><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li class="p"><b class="name">Chair ${i}</b> <span class="price">$${100 + i}.50</span></li>`,
  ).join('')}</ul></body></html>`;

const nested = (depth: number) => `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`;

const SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, price: { type: 'number' } },
    required: ['name', 'price'],
  },
};

describe('ParsePool', () => {
  it('reads files and pages on its threads', async () => {
    const parsers = poolParsers(pool);
    const csv = await parsers.document({
      tenantId: 't1',
      bytes: new TextEncoder().encode('name,price\nOak chair,120\nPine table,80\n'),
      fileName: 'prices.csv',
    });
    expect(csv.markdown).toBe(
      '| name | price |\n| --- | --- |\n| Oak chair | 120 |\n| Pine table | 80 |',
    );
    const page = await parsers.mainContent({
      tenantId: 't1',
      html: `<html><head><title>Oak</title></head><body><nav><a href="/">Home</a></nav><article><h1>Oak chairs</h1><p>${'Solid oak, oiled by hand. '.repeat(20)}</p></article></body></html>`,
    });
    expect(page.title).toBe('Oak');
    expect(page.markdown).toContain('Solid oak, oiled by hand.');
    expect(page.markdown).not.toContain('Home');
    expect(await pool.run('t1', 'htmlDigest', { html: '<div><p>Hi <b>there</b></p></div>' })).toBe(
      '<p>Hi there </p>',
    );
  });

  it('moves bytes a caller hands over instead of copying them; keeps those it does not', async () => {
    const csv = `id,name\n${Array.from({ length: 2_000 }, (_, i) => `${i},item ${i}`).join('\n')}\n`;
    const parsers = poolParsers(pool);
    const given = new TextEncoder().encode(csv);
    const read = await parsers.documentForRetrieval({
      tenantId: 't1',
      bytes: given,
      fileName: 'items.csv',
      handOver: true,
    });
    expect(read.markdown.split('\n')).toHaveLength(2 + 2_000);
    expect(read.chunks.length).toBeGreaterThan(0);
    expect(given.byteLength).toBe(0);
    const kept = new TextEncoder().encode(csv);
    await parsers.document({ tenantId: 't1', bytes: kept, fileName: 'items.csv' });
    expect(kept.byteLength).toBe(csv.length);
  });

  it('learns replay selectors from a page and replays them on the next one', async () => {
    const reader = poolPageReader(pool);
    const first = await reader.read({
      tenantId: 't1',
      html: products(5),
      cssSelector: null,
      url: 'http://shop.test/chairs?page=1',
      replay: null,
    });
    expect(first.markdown).toContain('Chair 4');
    const data = Array.from({ length: 5 }, (_, i) => ({
      name: `Chair ${i}`,
      price: 100 + i + 0.5,
    }));
    const learned = await reader.learn({
      tenantId: 't1',
      html: products(5),
      cssSelector: null,
      url: 'http://shop.test/chairs?page=1',
      data,
      schema: SCHEMA,
    });
    if (!learned.recipe) throw new Error(`nothing learned: ${learned.reason}`);
    const next = await reader.read({
      tenantId: 't1',
      html: products(8),
      cssSelector: null,
      url: 'http://shop.test/chairs?page=2',
      replay: { recipe: learned.recipe, schema: SCHEMA },
    });
    expect(next.markdown).toBeNull();
    expect(next.replayed?.data).toHaveLength(8);
    expect((next.replayed?.data as { price: number }[])[7]).toEqual({
      name: 'Chair 7',
      price: 107.5,
    });
    // A routine's last read also asks whether the page leads on past it: the pool tells, from
    // the same parse, on its thread.
    const url = 'http://shop.test/chairs?page=2';
    const paged = await reader.read({
      tenantId: 't1',
      html: `${products(2)}<a href="?page=3">More chairs</a>`,
      cssSelector: null,
      url,
      replay: null,
      onward: { url, move: { before: 'http://shop.test/chairs?page=1', after: url } },
    });
    expect(paged.onward).toBe(
      'the page links http://shop.test/chairs?page=3, a later page of the list',
    );
  });

  it('refuses a page nested past HTML_MAX_DEPTH before any DOM is built', async () => {
    const refused = poolPageReader(pool).read({
      tenantId: 't1',
      html: nested(5_000),
      cssSelector: null,
      url: null,
      replay: null,
    });
    await expect(refused).rejects.toBeInstanceOf(InputTooComplexError);
    await expect(refused).rejects.toThrow(/512 levels \(HTML_MAX_DEPTH\)/);
    await expect(
      poolParsers(pool).mainContent({ tenantId: 't1', html: nested(50_000) }),
    ).rejects.toThrow(/HTML_MAX_DEPTH/);
  });

  it('leaves the calling thread free while a long job runs', async () => {
    let finished = false;
    const job = poolPageReader(pool)
      .read({ tenantId: 't2', html: products(2_000), cssSelector: null, url: null, replay: null })
      .finally(() => (finished = true));
    // A timer on this thread fires while the page is still being parsed on the pool's.
    await sleep(20);
    expect(finished).toBe(false);
    expect((await job).markdown).toContain('Chair 1999');
  });

  it.skipIf(process.platform !== 'linux')(
    'runs its threads below the event loop’s CPU priority (nice 10), this thread unchanged',
    async () => {
      await poolParsers(pool).mainContent({ tenantId: 't1', html: products(10) });
      // Each task (thread) of this process, with its nice value (field 19 of its stat line).
      const nice = readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return {
          tid: Number(tid),
          nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]),
        };
      });
      expect(nice.find((t) => t.tid === process.pid)?.nice).toBe(0);
      expect(nice.filter((t) => t.nice === 10).length).toBeGreaterThanOrEqual(1);
    },
  );
});

describe('ParsePool limits of its own', () => {
  it('stops a job over PARSE_TIMEOUT_SECONDS, and the next job runs on a new thread', async () => {
    const slow = new ParsePool({
      threads: 1,
      heapMb: 512,
      timeoutMs: 300,
      limits: DEFAULT_INPUT_LIMITS,
    });
    try {
      const refused = slow.run('t1', 'pageRead', {
        html: products(3_000),
        cssSelector: null,
        url: null,
        replay: null,
      });
      await expect(refused).rejects.toBeInstanceOf(InputTooComplexError);
      await expect(refused).rejects.toThrow(/0\.3 s \(PARSE_TIMEOUT_SECONDS\)/);
      expect(await slow.run('t1', 'htmlDigest', { html: '<p>still here</p>' })).toBe(
        '<p>still here</p>',
      );
    } finally {
      await slow.close();
    }
  });

  it('stops a job over PARSE_WORKER_HEAP_MB, and the next job runs on a new thread', async () => {
    const small = new ParsePool({
      threads: 1,
      heapMb: 96,
      timeoutMs: 120_000,
      limits: DEFAULT_INPUT_LIMITS,
    });
    try {
      const refused = small.run('t1', 'pageRead', {
        html: products(5_000),
        cssSelector: null,
        url: null,
        replay: null,
      });
      await expect(refused).rejects.toThrow(/96 MB \(PARSE_WORKER_HEAP_MB\)/);
      expect(await small.run('t1', 'htmlDigest', { html: '<p>still here</p>' })).toBe(
        '<p>still here</p>',
      );
    } finally {
      await small.close();
    }
  });
});
