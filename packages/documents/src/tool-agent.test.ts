import { END } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { EventChannel } from './event-channel';
import { afterModel, protoKeyIn, type ToolAgentStateType } from './tool-agent';

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

describe('protoKeyIn', () => {
  it('finds an own "__proto__" key a parsed answer holds, at any depth', () => {
    const parsed = (json: string) => JSON.parse(json) as unknown;
    expect(protoKeyIn(parsed('{"fields":{"__proto__":"INV-0042"}}'))).toBe('fields.__proto__');
    expect(protoKeyIn(parsed('{"rows":[{"a":1},{"b":{"__proto__":{}}}]}'))).toBe(
      'rows[1].b.__proto__',
    );
    expect(protoKeyIn(parsed('{"fields":{"constructor":1,"toString":"x"}}'))).toBeNull();
    // Deeper than a recursive walk's stack would go.
    const deep = '['.repeat(20_000) + '{"__proto__":1}' + ']'.repeat(20_000);
    expect(protoKeyIn(parsed(deep))).toMatch(/__proto__$/);
  });
});
