// LlmClient.converse through the real SDKs against loopback fakes of their HTTP APIs: Gemini
// function calling (declarations, function calls and responses, thought signatures sent back)
// and OpenAI-compatible `tools` (tool_calls, tool messages, arguments that are not JSON).
import type { UsageEvent } from '@tandem/observability';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmClient } from './create-llm-client';
import { createGeminiProvider } from './gemini-provider';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';
import { LlmCallError, type LlmConverseRequest, type LlmMessage } from './port';
import { startFakeHttpServer, type FakeHttpServer } from './test-support/fake-http-server';

const TOOLS = [
  {
    name: 'get_document_text',
    description: 'Read the document text.',
    schema: z.object({ page: z.number().int().min(1).optional() }),
  },
  {
    name: 'update_field',
    description: 'Update one field.',
    schema: z.object({ path: z.string(), value: z.unknown(), confidence: z.number() }),
  },
];

function conversation(messages: LlmMessage[]): LlmConverseRequest {
  return {
    node: 'document_extraction',
    actionType: 'DOCUMENT_EXTRACTION',
    system: 'You extract documents.',
    messages,
    tools: TOOLS,
    context: { tenantId: 't1', userId: 'u1' },
  };
}

let server: FakeHttpServer;
let events: UsageEvent[];
beforeEach(async () => {
  server = await startFakeHttpServer();
  events = [];
});
afterEach(() => server.close());

type GeminiBody = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools: { functionDeclarations: Record<string, unknown>[] }[];
  toolConfig: { functionCallingConfig: { mode: string } };
  systemInstruction: { parts: { text: string }[] };
};

describe('Gemini function calling', () => {
  const client = () =>
    createLlmClient(createGeminiProvider({ apiKey: 'gemini-key-1234', baseUrl: server.url }), {
      retryBaseDelayMs: 1,
      usageHook: (event) => void events.push(event),
    });

  const turn = (parts: Record<string, unknown>[], finishReason = 'STOP') => ({
    body: {
      candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 20, totalTokenCount: 320 },
      modelVersion: 'gemini-2.5-flash',
    },
  });

  it('declares the tools, reads calls, and sends the model turn back verbatim with the results', async () => {
    server.enqueue(
      turn([
        { text: 'Reading the invoice.' },
        {
          functionCall: { id: 'call-1', name: 'get_document_text', args: { page: 1 } },
          thoughtSignature: 'c2lnbmF0dXJl',
        },
      ]),
      turn([{ text: 'The total is 1,240.50.' }]),
    );
    const first = await client().converse(conversation([{ role: 'user', text: 'Extract it.' }]));
    expect(first.text).toBe('Reading the invoice.');
    expect(first.toolCalls).toEqual([
      { id: 'call-1', name: 'get_document_text', args: { page: 1 } },
    ]);
    expect(first.usage).toMatchObject({ inputTokens: 300, outputTokens: 20 });
    const sent = server.requests[0]?.body as GeminiBody;
    expect(sent.systemInstruction.parts[0]?.text).toBe('You extract documents.');
    expect(sent.toolConfig.functionCallingConfig.mode).toBe('AUTO');
    const declared = sent.tools[0]?.functionDeclarations ?? [];
    expect(declared.map((d) => d.name)).toEqual(['get_document_text', 'update_field']);
    expect(declared[1]?.parametersJsonSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, confidence: { type: 'number' } },
      required: ['path', 'value', 'confidence'],
    });

    const second = await client().converse(
      conversation([
        { role: 'user', text: 'Extract it.' },
        {
          role: 'assistant',
          text: first.text,
          toolCalls: first.toolCalls,
          providerState: first.providerState,
        },
        {
          role: 'tool',
          toolCallId: 'call-1',
          name: 'get_document_text',
          content: 'Total: 1,240.50',
          isError: false,
        },
      ]),
    );
    expect(second).toMatchObject({ text: 'The total is 1,240.50.', toolCalls: [] });
    const replay = server.requests[1]?.body as GeminiBody;
    expect(replay.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    // The signature goes back with the call it came with.
    expect(replay.contents[1]?.parts[1]).toEqual({
      functionCall: { id: 'call-1', name: 'get_document_text', args: { page: 1 } },
      thoughtSignature: 'c2lnbmF0dXJl',
    });
    expect(replay.contents[2]?.parts).toEqual([
      {
        functionResponse: {
          id: 'call-1',
          name: 'get_document_text',
          response: { output: 'Total: 1,240.50' },
        },
      },
    ]);
    // One usage event per turn, the conversation as its input.
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      node: 'document_extraction',
      actionType: 'DOCUMENT_EXTRACTION',
    });
    expect(events[1]?.input.prompt).toContain('tool get_document_text: Total: 1,240.50');
  });

  it('answers the calls of one turn in one content; errors as errors; calls without ids by name', async () => {
    server.enqueue(turn([{ text: 'Done.' }]));
    await client().converse(
      conversation([
        { role: 'user', text: 'Fix the total.' },
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 'gemini-local-0', name: 'update_field', args: { path: 'total' } },
            { id: 'gemini-local-1', name: 'get_document_text', args: {} },
          ],
        },
        {
          role: 'tool',
          toolCallId: 'gemini-local-0',
          name: 'update_field',
          content: 'confidence is required',
          isError: true,
        },
        {
          role: 'tool',
          toolCallId: 'gemini-local-1',
          name: 'get_document_text',
          content: 'text',
          isError: false,
        },
      ]),
    );
    const body = server.requests[0]?.body as GeminiBody;
    expect(body.contents).toHaveLength(3);
    expect(body.contents[1]?.parts[0]).toEqual({
      functionCall: { name: 'update_field', args: { path: 'total' } },
    });
    expect(body.contents[2]?.parts).toEqual([
      { functionResponse: { name: 'update_field', response: { error: 'confidence is required' } } },
      { functionResponse: { name: 'get_document_text', response: { output: 'text' } } },
    ]);
  });

  it('retries a malformed function call, and fails on a safety stop sampled twice', async () => {
    server.enqueue(
      turn([], 'MALFORMED_FUNCTION_CALL'),
      turn([{ functionCall: { name: 'get_document_text', args: {} } }]),
    );
    const retried = await client().converse(conversation([{ role: 'user', text: 'Go.' }]));
    expect(retried.toolCalls).toEqual([
      { id: 'gemini-local-0', name: 'get_document_text', args: {} },
    ]);
    expect(server.requests).toHaveLength(2);

    // A blocked candidate is sampled again once; blocked again, the call fails for good.
    server.enqueue(turn([], 'SAFETY'), turn([], 'SAFETY'));
    const failed = await client()
      .converse(conversation([{ role: 'user', text: 'Go.' }]))
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LlmCallError);
    expect((failed as LlmCallError).details.retryable).toBe(false);
    expect(server.requests).toHaveLength(4);
    expect(events.at(-1)?.error).toMatch(/SAFETY/);
  });
});

type OpenAiBody = {
  messages: Record<string, unknown>[];
  tools: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
  tool_choice: string;
};

describe('OpenAI-compatible tools', () => {
  const client = () =>
    createLlmClient(
      createOpenAiCompatibleProvider({ baseUrl: `${server.url}/v1`, model: 'qwen2.5:7b' }),
      { retryBaseDelayMs: 1, usageHook: (event) => void events.push(event) },
    );

  const completion = (message: Record<string, unknown>) => ({
    body: {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'qwen2.5:7b',
      choices: [
        { index: 0, message: { role: 'assistant', ...message }, finish_reason: 'tool_calls' },
      ],
      usage: { prompt_tokens: 200, completion_tokens: 30, total_tokens: 230 },
    },
  });

  it('sends tools and the conversation; reads tool calls, and arguments that are not JSON', async () => {
    server.enqueue(
      completion({
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: {
              name: 'update_field',
              arguments: '{"path":"total","value":1240.5,"confidence":1}',
            },
          },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'get_document_text', arguments: '{page: 1' },
          },
          {
            id: 'call_c',
            type: 'function',
            function: { name: 'get_document_text', arguments: '' },
          },
          {
            id: 'call_d',
            type: 'function',
            function: { name: 'extract_fields', arguments: '{"fields":{"__proto__":"INV-1"}}' },
          },
        ],
      }),
    );
    const result = await client().converse(
      conversation([
        { role: 'user', text: 'The total is 1,240.50.' },
        {
          role: 'assistant',
          text: 'Checking.',
          toolCalls: [{ id: 'call_0', name: 'get_document_text', args: {} }],
        },
        {
          role: 'tool',
          toolCallId: 'call_0',
          name: 'get_document_text',
          content: 'Total: 1,204.50',
          isError: false,
        },
      ]),
    );
    expect(result.text).toBe('');
    expect(result.toolCalls[0]).toEqual({
      id: 'call_a',
      name: 'update_field',
      args: { path: 'total', value: 1240.5, confidence: 1 },
    });
    expect(result.toolCalls[1]).toMatchObject({
      id: 'call_b',
      args: {},
      argsError: expect.stringMatching(/not valid JSON/),
    });
    expect(result.toolCalls[2]).toEqual({ id: 'call_c', name: 'get_document_text', args: {} });
    // A key no copy keeps goes back to the model by name, not dropped from what it stores.
    expect(result.toolCalls[3]).toEqual({
      id: 'call_d',
      name: 'extract_fields',
      args: {},
      argsError: '"__proto__" may not be a key (at fields.__proto__); name it otherwise.',
    });

    const body = server.requests[0]?.body as OpenAiBody;
    expect(body.tool_choice).toBe('auto');
    expect(body.tools.map((t) => [t.type, t.function.name])).toEqual([
      ['function', 'get_document_text'],
      ['function', 'update_field'],
    ]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You extract documents.' },
      { role: 'user', content: 'The total is 1,240.50.' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_document_text', arguments: '{}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: 'Total: 1,204.50' },
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ provider: 'OPENAI_COMPATIBLE', usage: { inputTokens: 200 } });
  });

  it('samples a turn the content filter stopped once more; stopped again, fails for good', async () => {
    const filtered = () => {
      const response = completion({ content: null });
      for (const choice of response.body.choices) choice.finish_reason = 'content_filter';
      return response;
    };
    server.enqueue(filtered(), completion({ content: 'Done.' }));
    const result = await client().converse(conversation([{ role: 'user', text: 'Go.' }]));
    expect(result.text).toBe('Done.');
    expect(server.requests).toHaveLength(2);
    expect(events.at(-1)?.usage.inputTokens).toBe(400);

    server.enqueue(filtered(), filtered(), completion({ content: 'unused' }));
    const failed = await client()
      .converse(conversation([{ role: 'user', text: 'Go.' }]))
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LlmCallError);
    expect((failed as LlmCallError).details.retryable).toBe(false);
    expect(server.requests).toHaveLength(4);
    expect(events.at(-1)?.error).toMatch(/content_filter/);
  });
});
