// The soak's scripted model: the Gemini REST API on loopback, in a process of its own (forked by
// run.ts) so answering it never competes with the load generator's clock. The server's real
// @google/genai SDK calls it through GEMINI_BASE_URL. It answers every node of a COMPLEX
// paging task the way a competent model would, reading element ids from the prompt; token
// counts are characters / 4, priced by the server as Gemini's.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeOfSystem } from '@tandem/agent/testing/node-of-system';

interface GeminiRequest {
  systemInstruction?: { parts: { text?: string }[] };
  contents: { parts: { text?: string }[] }[];
}

/** The id of the element called `name` in the prompt's element list (`14 btn "Next"`). */
function idOf(prompt: string, name: string): string | null {
  const line = prompt.split('\n').find((l) => l.includes(` "${name}"`));
  return line?.trim().split(' ')[0] ?? null;
}

const PLAN_STEPS = 10;

export function answer(node: string, prompt: string): unknown {
  const goal = /(?:User goal|Goal): (.*)/.exec(prompt)?.[1] ?? 'page through the list';
  switch (node) {
    case 'context_analysis':
      return {
        source: 'PAGE',
        requiredSources: ['PAGE'],
        missingInformation: [],
        searchQuery: null,
        reasoning: 'The page holds everything the goal needs.',
      };
    case 'planning':
    case 'replanning':
      return {
        goal,
        steps: Array.from({ length: PLAN_STEPS }, () => ({
          description: "Click 'Next'",
          refinable: true,
        })),
      };
    case 'outcome_prediction':
      return { description: 'The next page of the list', urlShouldChange: true, nextGoal: null };
    case 'verification':
      return {
        action_succeeded: true,
        task_completed: false,
        confidence: 0.9,
        reason: 'The next page is shown.',
      };
    case 'critic':
      return { approve: true, reason: 'The action fits the goal.', evidence: 'Next is listed.' };
    case 'finalize':
      return { answer: `Done: ${goal}.` };
    case 'correction':
      return { strategy: 'RETRY_WITH_DELAY', action: 'wait(1)', reason: 'Give the page a moment.' };
    default: {
      const next = idOf(prompt, 'Next');
      return {
        thought: 'Go to the next page.',
        action: next ? `click("${next}")` : 'scroll("down")',
        chain: null,
        confidence: 0.9,
      };
    }
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
}

export interface ModelCalls {
  [node: string]: number;
}

export async function startModel(): Promise<{ url: string; calls: ModelCalls }> {
  const calls: ModelCalls = {};
  const server = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        const body = JSON.parse(raw) as GeminiRequest;
        const system = body.systemInstruction?.parts.map((p) => p.text ?? '').join('\n') ?? '';
        const prompt = body.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');
        const node = nodeOfSystem(system);
        calls[node] = (calls[node] ?? 0) + 1;
        const text = JSON.stringify(answer(node, prompt));
        const input = Math.ceil((system.length + prompt.length) / 4);
        const output = Math.ceil(text.length / 4);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            candidates: [
              { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 },
            ],
            usageMetadata: {
              promptTokenCount: input,
              candidatesTokenCount: output,
              totalTokenCount: input + output,
            },
            modelVersion: 'gemini-2.5-flash',
          }),
        );
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

// Forked by run.ts: report the URL, answer `calls` with the counts, stop on disconnect.
if (process.send) {
  const model = await startModel();
  process.send({ url: model.url });
  process.on('message', (message) => {
    if (message === 'calls') process.send?.({ calls: model.calls });
  });
  process.on('disconnect', () => process.exit(0));
}
