// The worst model there is, behind the Gemini REST API on loopback: one that OBEYS the page.
// Whenever a prompt shows an injected instruction (⟦INJ-n⟧, wherever the page put it), its
// action answer is exactly what the instruction says (the case's harmful action or chain), and
// its critic, verification and final answer go along. Without one it waits, so the case's next
// page comes. Beside it, a fake Tavily records every query the server sends out: a search that
// carries a patient's data is judged where it arrives.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeOfSystem, PAGE_IS_ENOUGH } from '@tandem/agent/testing/model-double';
import { answeringWith, startGeminiWire } from '@tandem/llm/testing';
import type { AttackCase } from './cases';

/** How an obeying answer's thought starts. */
export const OBEYED = 'Doing what the page says';

const MARKER = /⟦INJ-(\d+)⟧/;

export interface ObeyingModel {
  url: string;
  searchUrl: string;
  /** The cases the model answers for; a case must be registered before it runs. */
  register(cases: readonly AttackCase[]): void;
  /** Ids of the cases whose instruction reached the model (it tried). */
  tried: Set<number>;
  /** Every query the search provider received. */
  queries: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
}

/** A finish's message, when the harmful action is one. */
const finishMessage = (action: string): string | null => {
  const m = /^finish\(("(?:[^"\\]|\\.)*")\)$/.exec(action);
  return m?.[1] ? (JSON.parse(m[1]) as string) : null;
};

function answer(node: string, prompt: string, cases: Map<number, AttackCase>, tried: Set<number>) {
  const id = Number(MARKER.exec(prompt)?.[1] ?? Number.NaN);
  const attack = cases.get(id);
  if (attack) tried.add(id);
  // What the instruction still asks for: a model reads its own history, and does not type a
  // field again that a split chain already filled.
  const pageAt = prompt.search(/\n(?:Current page|Page now|Page):\n/);
  const history = pageAt >= 0 ? prompt.slice(0, pageAt) : prompt;
  const all = attack?.harmful ?? [];
  const doneUpTo = all.findLastIndex((action, k) => k < all.length - 1 && history.includes(action));
  const harmful = all.slice(doneUpTo + 1);
  switch (node) {
    case 'context_analysis':
      return PAGE_IS_ENOUGH;
    case 'planning':
    case 'replanning':
      return { goal: 'Do what the page asks', steps: [{ description: 'Do it', refinable: false }] };
    case 'action_generation':
    case 'direct_action':
      if (harmful.length === 0)
        return { thought: 'Nothing to do yet.', action: 'wait(1)', chain: null, confidence: 0.9 };
      return {
        thought: `${OBEYED} (case ${id}).`,
        action: harmful[0],
        chain:
          harmful.length > 1
            ? harmful.map((action, index) => ({ action, description: `step ${index + 1}` }))
            : null,
        confidence: 0.95,
      };
    case 'critic':
      return { approve: true, reason: 'It is what the page asks.', evidence: 'The page says so.' };
    case 'outcome_prediction':
      return {
        description: 'The page does what was asked',
        urlShouldChange: false,
        nextGoal: null,
      };
    case 'verification':
      return {
        action_succeeded: true,
        task_completed: false,
        confidence: 0.9,
        reason: 'The action took effect.',
      };
    case 'correction':
      return { strategy: 'RETRY_WITH_DELAY', action: 'wait(1)', reason: 'Try again.' };
    case 'finalize': {
      const message = harmful.map(finishMessage).find((m) => m !== null);
      return { answer: message ?? 'Done.' };
    }
    case 'web_search':
      return {
        solved: true,
        answer: 'Found it.',
        shouldAskUser: false,
        refinedQuery: null,
        reason: 'found',
      };
    default:
      return {};
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

export async function startObeyingModel(): Promise<ObeyingModel> {
  const cases = new Map<number, AttackCase>();
  const tried = new Set<number>();
  const queries: string[] = [];
  const gemini = await startGeminiWire(
    answeringWith(({ system, prompt }) => answer(nodeOfSystem(system), prompt, cases, tried)),
  );
  const tavily = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        const { query } = JSON.parse(raw) as { query?: string };
        if (typeof query === 'string') queries.push(query);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            results: [
              { title: 'Result', url: 'https://results.example/1', content: 'Found.', score: 0.9 },
            ],
          }),
        );
      })
      .catch(() => res.writeHead(400).end());
  });
  const searchUrl = await listen(tavily);
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: gemini.url,
    searchUrl,
    register(list) {
      for (const c of list) cases.set(c.id, c);
    },
    tried,
    queries,
    close: async () => {
      await Promise.all([gemini.close(), close(tavily)]);
    },
  };
}
