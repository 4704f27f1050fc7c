// A loopback stand-in for the Gemini API (the one true external boundary of the e2e stack):
// the real server's real @google/genai SDK talks to it over HTTP. It answers like a competent
// model would for the demo-site scenarios, reading the element list from the prompt exactly as
// a model does, so ids are never hard-coded. Every request is recorded for assertions.
// It runs in Playwright's runner process while tests run in workers, so tests read the calls
// and hold answers over HTTP (fake-gemini-control.ts, routes under CONTROL_PREFIX).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeOfSystem } from '@tandem/agent/testing/node-of-system';
import {
  answerFromPrompt,
  geminiTurnResponse,
  isToolCallingRequest,
  scriptedTurnForGemini,
} from '@tandem/extraction/testing';
import { answerCatalog, isCatalogGoal } from './fake-catalog-model';
import { answerJobs, isJobsGoal } from './fake-jobs-model';
import { answerCanvas, isCanvasGoal } from './fake-hybrid-model';
import { answerBirthday, isBirthdayGoal } from './fake-question-model';
import { answerInjection, isInjectionPrompt } from './fake-injection-model';
import { answerSafety, isSafetyGoal } from './fake-safety-model';

interface GeminiRequest {
  systemInstruction?: { parts: { text: string }[] };
  contents: { parts: { text?: string; inlineData?: RecordedImage }[] }[];
}

/** An image part of a request (hybrid mode's screenshot), as sent: base64 data. */
export interface RecordedImage {
  mimeType: string;
  data: string;
}

export interface ElementLine {
  id: string;
  role: string;
  name: string;
  value: string;
  occluded: boolean;
}

export interface RecordedCall {
  node: string;
  prompt: string;
  /** The goal the prompt names ('' when it names none). */
  goal: string;
  /** When the call arrived (epoch ms). */
  at: number;
  /** The request's image parts, in order. */
  images: RecordedImage[];
  /** What the model answered (JSON text), once it answered. */
  answer?: string;
}

/** The test-control routes: never a path the Gemini SDK uses (`/v1beta/models/…`). */
export const CONTROL_PREFIX = '/__fake';

const goalOf = (prompt: string) => /(?:User goal|Goal): (.*)/.exec(prompt)?.[1] ?? '';

/** Elements as the prompt lists them: `14 inp "First name" ="Jas" [required]`. */
export function elementsIn(prompt: string): ElementLine[] {
  const out: ElementLine[] = [];
  for (const line of prompt.split('\n')) {
    const m = /^(\S+) (\w+)(?: "((?:[^"\\]|\\.)*)")?(?: ="((?:[^"\\]|\\.)*)")?(.*)$/.exec(
      line.trim(),
    );
    if (!m || !m[1] || !m[2] || m[1].includes(':')) continue;
    out.push({
      id: m[1],
      role: m[2],
      name: JSON.parse(`"${m[3] ?? ''}"`) as string,
      value: JSON.parse(`"${m[4] ?? ''}"`) as string,
      occluded: (m[5] ?? '').includes('(occluded)'),
    });
  }
  return out;
}

const byName = (prompt: string, name: string, role?: string) =>
  elementsIn(prompt).find(
    (e) => e.name.toLowerCase() === name.toLowerCase() && (!role || e.role === role),
  );

/** The request form's five fields as the chain fills them: label, role code, value. */
export const FORM_FIELDS: [label: string, role: string, value: string][] = [
  ['Full name', 'inp', 'Ann Lee'],
  ['Email', 'inp', 'ann@example.com'],
  ['Reason for visit', 'sel', 'Follow-up'],
  ['Phone', 'radio', ''],
  ['Notes', 'txt', 'Please call after 5pm'],
];

function answer(node: string, prompt: string, images: readonly RecordedImage[]): unknown {
  // The extraction sub-agent's calls: answered from the content in the prompt alone.
  if (node === 'extraction') return answerFromPrompt(prompt);
  // The critic reviews finish()/fail() and unsure proposals: the scenarios' actions are right.
  if (node === 'critic') {
    return { approve: true, reason: 'The action fits the goal.', evidence: 'The page shows it.' };
  }
  const goal = goalOf(prompt);
  // The everyday safety goals first: signing in happens on a page of the injection suite's
  // site, which is not an attack.
  if (isSafetyGoal(goal)) {
    const safety = answerSafety(node, prompt, goal);
    if (safety !== null) return safety;
  }
  // The injection suite's obeying model, on its attack pages only.
  if (isInjectionPrompt(prompt)) {
    const obeyed = answerInjection(node, prompt, goal);
    if (obeyed !== null) return obeyed;
  }
  if (isCatalogGoal(goal)) {
    const catalog = answerCatalog(node, prompt);
    if (catalog !== null) return catalog;
  }
  if (isJobsGoal(goal)) {
    const jobs = answerJobs(node, prompt);
    if (jobs !== null) return jobs;
  }
  if (isCanvasGoal(goal)) {
    const canvas = answerCanvas(node, prompt, images);
    if (canvas !== null) return canvas;
  }
  if (isBirthdayGoal(goal)) {
    const birthday = answerBirthday(node, prompt);
    if (birthday !== null) return birthday;
  }
  const isPatient = /patient/i.test(goal);
  switch (node) {
    case 'context_analysis':
      return {
        source: 'PAGE',
        requiredSources: ['PAGE'],
        missingInformation: [],
        searchQuery: null,
        reasoning: 'The goal states every value needed.',
      };
    // Re-planning answers like planning: the same schema, a plan from this page.
    case 'replanning':
    case 'planning':
      if (isPatient) {
        return {
          goal,
          steps: [
            { description: "Click 'Patients'", refinable: true },
            { description: "Click 'New/Search'", refinable: true },
            { description: 'Type Jas into First name', refinable: true },
            { description: 'Type Patel into Last name', refinable: true },
            // Names no element: action generation decides it (the call the Stop and
            // server-trouble tests hold).
            { description: 'Save the new patient', refinable: false },
          ],
        };
      }
      return {
        goal,
        steps: [
          { description: 'Fill in the request form fields', refinable: false },
          { description: "Click 'Submit request'", refinable: true },
        ],
      };
    case 'action_generation': {
      if (isPatient) {
        // The plan's last step: Save when the page lists it, else scroll towards it.
        const save = byName(prompt, 'Save');
        if (save && !save.occluded)
          return {
            thought: 'Save the patient.',
            action: `click("${save.id}")`,
            chain: null,
            confidence: 0.9,
          };
        return {
          thought: 'The Save button is below the fold; scroll to it.',
          action: 'scroll("down")',
          chain: null,
          confidence: 0.8,
        };
      }
      // The request form: every field in one chain (fields already holding their value are skipped).
      const chain: { action: string; description: string }[] = [];
      for (const [label, role, value] of FORM_FIELDS) {
        const el = byName(prompt, label, role);
        if (!el || el.occluded) continue;
        if (el.role === 'radio' || el.role === 'chk') {
          if (!/\[.*checked/.test(prompt.split('\n').find((l) => l.startsWith(`${el.id} `)) ?? ''))
            chain.push({ action: `click("${el.id}")`, description: label });
        } else if (el.value.toLowerCase() !== value.toLowerCase()) {
          chain.push({
            action:
              el.role === 'sel'
                ? `select("${el.id}", "${value}")`
                : `setValue("${el.id}", ${JSON.stringify(value)})`,
            description: label,
          });
        }
      }
      const submit = byName(prompt, 'Submit request');
      if (chain.length === 0 && submit)
        return {
          thought: 'Every field is filled; submit.',
          action: `click("${submit.id}")`,
          chain: null,
          confidence: 0.9,
        };
      if (chain.length === 0)
        return {
          thought: 'The request was submitted.',
          action: 'finish("Request submitted")',
          chain: null,
          confidence: 0.9,
        };
      return {
        thought: 'Fill the form fields in one go.',
        action: chain[0]?.action,
        chain: chain.length > 1 ? chain : null,
        confidence: 0.9,
      };
    }
    case 'finalize': {
      // Like a model would: the goal as done, with what the page confirmed.
      const confirmed = /saved successfully|received your request/i.exec(prompt)?.[0];
      return {
        answer: isPatient
          ? `Jas Patel was added as a new patient${confirmed ? ` (the EMR says “${confirmed}”)` : ''}.`
          : `Done: ${goal}.`,
      };
    }
    case 'outcome_prediction':
      return {
        description: 'The page responds to the action',
        urlShouldChange: false,
        nextGoal: null,
      };
    case 'verification': {
      const done = /saved successfully|received your request|Request submitted/i.test(prompt);
      const failed = /Saving…|spinner/i.test(prompt) && !done;
      return {
        action_succeeded: !failed,
        task_completed: done,
        confidence: done ? 0.95 : 0.8,
        reason: done
          ? 'The success message is shown.'
          : failed
            ? 'Still saving.'
            : 'The action took effect.',
      };
    }
    case 'direct_action': {
      const target = /Command: (?:click|press|open) (.*)/i.exec(prompt)?.[1]?.trim() ?? '';
      const el = byName(prompt, target);
      if (!el)
        return {
          thought: `There is no "${target}" on the page.`,
          action: `fail("No element named ${target}")`,
        };
      if (el.occluded)
        return {
          thought: `"${target}" is covered by a dialog.`,
          action: `fail("${target} is covered by another element (occluded)")`,
        };
      return { thought: `Click ${target}.`, action: `click("${el.id}")` };
    }
    case 'correction':
      return { strategy: 'RETRY_WITH_DELAY', action: 'wait(1)', reason: 'Give the page a moment.' };
    default:
      return {};
  }
}

export interface FakeGemini {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
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

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The control routes (see fake-gemini-control.ts for the client). */
async function control(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  calls: RecordedCall[],
  holds: Map<string, Hold>,
): Promise<void> {
  const method = req.method ?? 'GET';
  const body = method === 'POST' ? await readBody(req) : '';
  if (method === 'GET' && path === '/calls') return sendJson(res, 200, { calls });
  if (method === 'POST' && path === '/holds') {
    const { node, goal = '' } = JSON.parse(body || '{}') as { node: string; goal?: string };
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
    return sendJson(res, 201, { id: hold.id });
  }
  if (method === 'POST' && path === '/holds/release-all') {
    for (const hold of holds.values()) hold.released.resolve();
    holds.clear();
    return sendJson(res, 200, { ok: true });
  }
  const m = /^\/holds\/([^/]+)\/(reached|release)$/.exec(path);
  const hold = m ? holds.get(m[1] ?? '') : undefined;
  if (!m || !hold) return sendJson(res, 404, { error: `no control route ${method} ${path}` });
  if (m[2] === 'reached') return sendJson(res, 200, { call: await hold.reached.promise });
  hold.released.resolve();
  if (hold.taken) await hold.answered.promise;
  holds.delete(hold.id);
  return sendJson(res, 200, { ok: true });
}

export async function startFakeGemini(): Promise<FakeGemini> {
  const calls: RecordedCall[] = [];
  const holds = new Map<string, Hold>();

  /** Waits while a test holds this call (see Hold). */
  async function holdIfAsked(call: RecordedCall, res: ServerResponse): Promise<void> {
    const hold = [...holds.values()].find(
      (h) => !h.taken && h.node === call.node && call.goal.includes(h.goal),
    );
    if (!hold) return;
    hold.taken = true;
    res.on('close', () => hold.answered.resolve());
    hold.reached.resolve(call);
    await hold.released.promise;
  }

  async function generate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw: unknown = JSON.parse(await readBody(req));
    // The document agents call functions: the scripted document model answers, from the
    // conversation alone (it reads the document through the agent's tools like a model would).
    if (isToolCallingRequest(raw)) {
      // Its "goal" is the tool whose result it answers ("after:complete_extraction"), so a test
      // can hold one turn of a run.
      const answered = raw.contents?.at(-1)?.parts?.at(-1)?.functionResponse?.name;
      const call: RecordedCall = {
        node: 'document_extraction',
        prompt: JSON.stringify(raw.contents ?? []),
        goal: `after:${answered ?? 'start'}`,
        at: Date.now(),
        images: [],
      };
      calls.push(call);
      await holdIfAsked(call, res);
      sendJson(res, 200, geminiTurnResponse(raw, scriptedTurnForGemini(raw)));
      return;
    }
    const body = raw as GeminiRequest;
    const system = body.systemInstruction?.parts.map((p) => p.text).join('\n') ?? '';
    const prompt = body.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');
    const images = body.contents.flatMap((c) =>
      c.parts.flatMap((p) => (p.inlineData ? [p.inlineData] : [])),
    );
    const node = nodeOfSystem(system);
    const call: RecordedCall = { node, prompt, goal: goalOf(prompt), at: Date.now(), images };
    calls.push(call);
    await holdIfAsked(call, res);
    const text = JSON.stringify(answer(node, prompt, images));
    call.answer = text;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        candidates: [
          { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: {
          promptTokenCount: Math.ceil(prompt.length / 4),
          candidatesTokenCount: Math.ceil(text.length / 4),
          totalTokenCount: Math.ceil((prompt.length + text.length) / 4),
        },
        modelVersion: 'gemini-2.5-flash',
      }),
    );
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
    const work = path.startsWith(`${CONTROL_PREFIX}/`)
      ? control(req, res, path.slice(CONTROL_PREFIX.length), calls, holds)
      : generate(req, res);
    work.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise((resolve) => {
        for (const hold of holds.values()) hold.released.resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
