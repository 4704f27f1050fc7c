// A loopback stand-in for the Gemini API (the one true external boundary of the e2e stack):
// the real server's real @google/genai SDK talks to it over HTTP (@tandem/llm's Gemini wire).
// It answers like a competent model would for the demo-site scenarios (fake-*-model.ts, tried
// in the order of SCENARIOS), reading the element list from the prompt exactly as a model does,
// so ids are never hard-coded. Every request is recorded for assertions.
// It runs in Playwright's runner process while tests run in workers, so tests read the calls
// and hold answers over HTTP (fake-gemini-control.ts, routes under CONTROL_PREFIX).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  answerFirst,
  answerOf,
  startModelDouble,
  type ModelCall,
  type RecordedCall,
} from '@tandem/agent/testing/model-double';
import { geminiTurnResponse } from '@tandem/documents/testing';
import type { WireRequest } from '@tandem/llm/testing';
import { EVERYDAY, FORM } from './fake-everyday-model';
import { CANVAS } from './fake-hybrid-model';
import { INJECTION } from './fake-injection-model';
import { BIRTHDAY } from './fake-question-model';

export type { RecordedCall };

/** The test-control routes: never a path the Gemini SDK uses (`/v1beta/models/…`). */
export const CONTROL_PREFIX = '/__fake';

/**
 * The first scenario that answers wins, the form's answers the default: the everyday goals come
 * first (signing in happens on a page of the injection suite's site, which is not an attack, and
 * a routine test follows a link on an attack page because the user asked to), then the
 * injection suite's obeying model, on its attack pages only.
 */
const SCENARIOS = [EVERYDAY, INJECTION, CANVAS, BIRTHDAY];

function answer(call: ModelCall): unknown {
  return answerFirst(SCENARIOS, call, (c) => answerOf(FORM, c) ?? {});
}

export interface FakeGemini {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A hold: the next call for `node` whose goal contains `goal` is recorded but not answered
 * until the test releases it, so a test can act (press Stop, kill the server) while the
 * server waits on the model in the middle of a request.
 */
interface Hold {
  id: string;
  node: string;
  goal: string;
  reached: ReturnType<typeof deferred<RecordedCall>>;
  released: ReturnType<typeof deferred<void>>;
  /** Settles once the held answer was written (or its request went away). */
  answered: ReturnType<typeof deferred<void>>;
  taken: boolean;
}

/** The control routes (see fake-gemini-control.ts for the client). */
async function control(
  { method, path, body }: WireRequest,
  res: ServerResponse,
  calls: RecordedCall[],
  holds: Map<string, Hold>,
): Promise<object> {
  if (method === 'GET' && path === '/calls') return { calls };
  if (method === 'POST' && path === '/holds') {
    const { node, goal = '' } = (body ?? {}) as { node: string; goal?: string };
    const hold: Hold = {
      id: randomUUID(),
      node,
      goal,
      reached: deferred(),
      released: deferred(),
      answered: deferred(),
      taken: false,
    };
    holds.set(hold.id, hold);
    res.statusCode = 201;
    return { id: hold.id };
  }
  if (method === 'POST' && path === '/holds/release-all') {
    for (const hold of holds.values()) hold.released.resolve();
    holds.clear();
    return { ok: true };
  }
  const m = /^\/holds\/([^/]+)\/(reached|release)$/.exec(path);
  const hold = m ? holds.get(m[1] ?? '') : undefined;
  if (!m || !hold) {
    res.statusCode = 404;
    return { error: `no control route ${method} ${path}` };
  }
  if (m[2] === 'reached') return { call: await hold.reached.promise };
  hold.released.resolve();
  if (hold.taken) await hold.answered.promise;
  holds.delete(hold.id);
  return { ok: true };
}

export async function startFakeGemini(): Promise<FakeGemini> {
  const holds = new Map<string, Hold>();
  // The document agents' turns are the scripted document model's, read from the conversation
  // alone (it reads the document through the agent's tools like a model would).
  const model = await startModelDouble(answer, {
    converse: geminiTurnResponse,
    record: true,
    promptOnly: true,
    route: (request, res) =>
      request.path.startsWith(`${CONTROL_PREFIX}/`)
        ? control(
            { ...request, path: request.path.slice(CONTROL_PREFIX.length) },
            res,
            model.log,
            holds,
          )
        : undefined,
    // Waits while a test holds this call (see Hold).
    async before(call, res) {
      const hold = [...holds.values()].find(
        (h) => !h.taken && h.node === call.node && call.goal.includes(h.goal),
      );
      if (!hold) return;
      hold.taken = true;
      res.on('close', () => hold.answered.resolve());
      hold.reached.resolve(call);
      await hold.released.promise;
    },
  });
  return {
    url: model.url,
    calls: model.log,
    close: () => {
      for (const hold of holds.values()) hold.released.resolve();
      return model.close();
    },
  };
}
