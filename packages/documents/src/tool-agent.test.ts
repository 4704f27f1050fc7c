import { END } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { EventChannel } from './event-channel';
import { z } from 'zod';
import { afterModel, runToolCall, type ToolAgentStateType } from './tool-agent';
import type { AgentTool } from './tools';

const state = (messages: ToolAgentStateType['messages'], turns: number): ToolAgentStateType => ({
  messages,
  turns,
  stoppedAtLimit: false,
});

describe('afterModel', () => {
  const call = { id: 'c1', name: 'get_document_text', args: {} };
  it('runs the tools the model called, and ends when it called none or ran out of turns', () => {
    expect(afterModel(state([{ role: 'assistant', text: '', toolCalls: [call] }], 1), 5)).toBe(
      'tools',
    );
    expect(afterModel(state([{ role: 'assistant', text: 'Done.', toolCalls: [] }], 1), 5)).toBe(
      END,
    );
    expect(afterModel(state([{ role: 'assistant', text: '', toolCalls: [call] }], 5), 5)).toBe(END);
    expect(afterModel(state([{ role: 'user', text: 'hi' }], 0), 5)).toBe(END);
  });
});

describe('EventChannel', () => {
  it('hands events to a reader in order, and ends when closed', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const read = (async () => {
      const out: number[] = [];
      for await (const n of channel) out.push(n);
      return out;
    })();
    channel.push(2);
    await Promise.resolve();
    channel.push(3);
    channel.close();
    channel.push(4);
    expect(await read).toEqual([1, 2, 3]);
  });

  it('lets the writer go on when the reader leaves', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    for await (const n of channel) {
      expect(n).toBe(1);
      break;
    }
    expect(() => channel.push(2)).not.toThrow();
    channel.close();
  });
});

describe('runToolCall', () => {
  const stored: unknown[] = [];
  const save: AgentTool = {
    name: 'save',
    description: 'Stores its fields.',
    schema: z.object({ fields: z.record(z.string(), z.unknown()) }),
    writes: true,
    run: (input) => {
      stored.push(input);
      return Promise.resolve('Saved.');
    },
  };
  const run = (json: string) =>
    runToolCall(
      { id: 'c1', name: 'save', args: JSON.parse(json) as Record<string, unknown> },
      new Map([['save', save]]),
      undefined,
    );

  it('refuses a "__proto__" key or deep nesting by name, before the tool runs', async () => {
    await expect(run('{"fields":{"__proto__":"INV-0042"}}')).resolves.toEqual({
      content:
        'Invalid arguments for save: "__proto__" may not be a key (at fields.__proto__); name it otherwise.',
      isError: true,
    });
    const deep = `{"fields":{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    await expect(run(deep)).resolves.toMatchObject({
      content: expect.stringMatching(
        /^Invalid arguments for save: The JSON is nested deeper than 64/,
      ),
      isError: true,
    });
    expect(stored).toEqual([]);
    await expect(run('{"fields":{"constructor":1}}')).resolves.toEqual({
      content: 'Saved.',
      isError: false,
    });
  });
});
