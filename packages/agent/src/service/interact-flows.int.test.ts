// Flows that cross a process or network boundary: web search against a loopback fake Tavily
// server (the real HTTP client talks to it), googleSearch(), and resuming a task after the
// server process restarts (a new store and graph on the same database file).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';
import type { ScriptedStep } from '@tandem/llm/testing';
import { createTavilyWebSearch } from '../web-search/tavily-web-search';

let server: Server;
let baseUrl = '';
const searches: { query: string; include_domains?: string[]; auth?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { query: string; include_domains?: string[] };
      searches.push({ ...parsed, auth: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          results: [
            {
              title: 'Clinic hours',
              url: 'https://emr.example/help/hours',
              content: 'The clinic opens at 8am.',
              score: 0.9,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const tree: SemanticNodeV3[] = [
  { i: '1', r: 'inp', n: 'Opening time', v: '' },
  { i: '2', r: 'btn', n: 'Save' },
];

/** Context analysis asks for the web (and `required`), the search finds 8am, the plan types it. */
const openingTimeSteps = (required: ('MEMORY' | 'WEB_SEARCH' | 'PAGE')[]): ScriptedStep[] => [
  {
    node: 'context_analysis',
    output: {
      source: 'WEB_SEARCH',
      requiredSources: required,
      missingInformation: ['opening time'],
      searchQuery: 'clinic opening time',
      reasoning: 'a public fact',
    },
  },
  {
    node: 'web_search',
    output: {
      solved: true,
      answer: '8am',
      shouldAskUser: false,
      refinedQuery: null,
      reason: 'found',
    },
  },
  {
    node: 'planning',
    output: {
      goal: 'set opening time',
      steps: [{ description: 'Type 8am into Opening time', refinable: true }],
    },
  },
];

describe('web search', () => {
  it('WEB_SEARCH runs Tavily restricted to the page domain and feeds planning', async () => {
    const agent = await createTestAgent({
      webSearch: createTavilyWebSearch({ apiKey: 'tvly-test', baseUrl }),
      steps: openingTimeSteps(['WEB_SEARCH']),
    });
    const r = await agent.act(
      pageRequest('https://emr.example/settings', tree, {
        query: 'find out when the clinic opens and enter it as the opening time',
      }),
    );
    expect(r.action).toBe('setValue("1", "8am")');
    expect(searches.at(-1)).toMatchObject({
      query: 'clinic opening time',
      include_domains: ['emr.example'],
      auth: 'Bearer tvly-test',
    });
    const planningPrompt = agent.scripted?.calls.find((c) => c.node === 'planning')?.prompt ?? '';
    expect(planningPrompt).toMatch(/<page_content untrusted="true">[\s\S]*clinic opens at 8am/);
    const task = await agent.store.tasks.get(agent.caller.tenantId, r.taskId);
    expect(String(task?.webSearchResult)).toMatch(/8am/);
    await agent.store.close();
  });

  it('googleSearch("…") runs the search server-side, puts results in the thought and returns wait(1)', async () => {
    const agent = await createTestAgent({
      webSearch: createTavilyWebSearch({ apiKey: 'tvly-test', baseUrl }),
      steps: [
        pageContextStep('page'),
        {
          node: 'planning',
          output: {
            goal: 'g',
            steps: [{ description: 'Find the opening time', refinable: false }],
          },
        },
        {
          node: 'action_generation',
          output: {
            thought: 'I need the hours',
            action: 'googleSearch("clinic opening time")',
            chain: null,
            confidence: 0.8,
          },
        },
        {
          node: 'web_search',
          output: {
            solved: true,
            answer: '8am',
            shouldAskUser: false,
            refinedQuery: null,
            reason: 'found',
          },
        },
      ],
    });
    const r = await agent.act(
      pageRequest('https://emr.example/settings', tree, { query: 'look up when the clinic opens' }),
    );
    expect(r.action).toBe('wait(1)');
    expect(r.thought).toMatch(/clinic opens at 8am|8am/);
    await agent.store.close();
  });
  it('multi-source synthesis: MEMORY, WEB_SEARCH and organisation knowledge all reach planning', async () => {
    const agent = await createTestAgent({
      webSearch: createTavilyWebSearch({ apiKey: 'tvly-test', baseUrl }),
      steps: openingTimeSteps(['MEMORY', 'WEB_SEARCH', 'PAGE']),
    });
    const { tenantId, userId } = agent.caller;
    // MEMORY: an earlier exchange in this session; knowledge: the tenant's note for the site.
    const session = await agent.store.sessions.create(tenantId, { userId });
    await agent.store.messages.append(tenantId, {
      sessionId: session.id,
      role: 'user',
      content: 'We are setting up the Riverside clinic.',
    });
    const doc = await agent.store.knowledge.createDocument(tenantId, {
      domain: 'emr.example',
      title: 'Settings guide',
      mimeType: 'text/markdown',
      status: 'ready',
    });
    await agent.store.knowledge.addChunks(tenantId, doc.id, [
      {
        ordinal: 0,
        content: 'Opening times are entered as 8am, not 08:00.',
        headingPath: ['Settings'],
      },
    ]);
    const r = await agent.act(
      pageRequest('https://emr.example/settings', tree, {
        query: 'find out when the clinic opens and enter it as the opening time',
        sessionId: session.id,
      }),
    );
    expect(r.action).toBe('setValue("1", "8am")');
    const prompt = agent.scripted?.calls.find((c) => c.node === 'planning')?.prompt ?? '';
    expect(prompt).toContain('Sources this plan draws on: WEB_SEARCH, MEMORY, PAGE');
    expect(prompt).not.toContain('gave nothing');
    expect(prompt).toMatch(/Conversation so far \(MEMORY\):[\s\S]*Riverside clinic/);
    expect(prompt).toMatch(/Organisation knowledge:[\s\S]*entered as 8am, not 08:00/);
    expect(prompt).toMatch(/Web search results \(WEB_SEARCH\):[\s\S]*clinic opens at 8am/);
    expect(prompt).toContain('Current page (PAGE):');
    await agent.store.close();
  });
});

describe('durability', () => {
  it('an LLM outage mid-task fails the request, and the retried request resumes the same step', async () => {
    const { ProviderError } = await import('@tandem/llm');
    // Down for the call and each of its retries (a refusal, not retryable, fails the task).
    const outage = new ProviderError('upstream 503: model overloaded', {
      kind: 'http',
      status: 503,
      retryable: true,
    });
    const agent = await createTestAgent({
      steps: [
        pageContextStep('page'),
        {
          node: 'planning',
          output: {
            goal: 'g',
            steps: [
              { description: "Click 'Patients'", refinable: true },
              { description: 'Do the rest', refinable: false },
            ],
          },
        },
        ...Array.from({ length: 4 }, () => ({ node: 'action_generation' as const, error: outage })),
        {
          node: 'action_generation',
          output: { thought: 'done', action: 'finish("all done")', chain: null, confidence: 0.9 },
        },
      ],
    });
    const r1 = await agent.act(
      pageRequest('https://app.example/', [{ i: 'a', r: 'btn', n: 'Patients', s: 'collapsed' }], {
        query: 'open the patients menu and more',
      }),
    );
    const cont = pageRequest(
      'https://app.example/',
      [{ i: 'a', r: 'btn', n: 'Patients', s: 'expanded' }],
      { taskId: r1.taskId, sessionId: r1.sessionId, lastActionStatus: 'success' },
    );
    await expect(agent.interact(cont)).rejects.toMatchObject({ name: 'LlmCallError' });
    const r2 = await agent.act(cont);
    expect(r2.verification?.success).toBe(true);
    expect(r2.status).toBe('completed');
    expect(r2.result).toBe('all done');
    await agent.store.close();
  });

  it('a server killed between two requests resumes the task on the next one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-resume-'));
    try {
      const url = `file:${path.join(dir, 'tandem.db')}`;
      const first = await createTestAgent({
        unconfigured: true,
        store: await createLibsqlStore({ url }),
      });
      const r1 = await first.act(
        pageRequest('https://app.example/', [{ i: 'a', r: 'btn', n: 'Patients', s: 'collapsed' }], {
          query: 'click Patients',
        }),
      );
      await first.store.close(); // the process dies: graph, store and client are gone

      const store = await createLibsqlStore({ url });
      const second = await createTestAgent({ unconfigured: true, store });
      const caller = first.caller;
      const { InteractRequest } = await import('@tandem/contracts');
      const r2 = await second.service.interact(
        caller,
        InteractRequest.parse(
          pageRequest(
            'https://app.example/',
            [
              { i: 'a', r: 'btn', n: 'Patients', s: 'expanded' },
              { i: 'b', r: 'menu', n: 'New' },
            ],
            { taskId: r1.taskId, sessionId: r1.sessionId, lastActionStatus: 'success' },
          ),
        ),
      );
      expect(r2.needsUserInput).not.toBe(true);
      expect(!r2.needsUserInput && r2.status).toBe('completed');
      expect(!r2.needsUserInput && r2.verification?.success).toBe(true);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
