// The demo apps' JSON API. State lives in memory, one copy per server instance, so parallel
// test files never see each other's patients; POST /__reset puts it back to the seed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJson, sendJson } from './http';
import { PRICE_TABLE, catalogPage } from './catalog';
import { jobBoardPage } from './jobs';
import { DEMO_API } from './pages';
import { SEED_PATIENTS, matchesQuery, validatePatient } from './patients';
import type { Patient, PatientInput } from './patients';
import { parseVariantRequest, type DemoVariant } from './variants';

export interface RerenderClick {
  readonly itemId: string;
  /** 1-based order of the click since the last reset. */
  readonly sequence: number;
}

export type FormValue = string | boolean | readonly string[];

export interface FormSubmission {
  readonly sequence: number;
  readonly values: Readonly<Record<string, FormValue>>;
}

/** A staff member the staff-form variant's page added: the patient form's fields. */
export interface StaffMember extends PatientInput {
  readonly id: string;
}

export interface SentMessage {
  readonly to: string;
  readonly body: string;
  readonly sequence: number;
}

interface State {
  patients: Patient[];
  nextPatientNumber: number;
  clicks: RerenderClick[];
  submissions: FormSubmission[];
  messages: SentMessage[];
  staff: StaffMember[];
  /** Part of the state so a reset also puts the plain site back. */
  variant: DemoVariant | null;
}

function freshState(): State {
  return {
    patients: [...SEED_PATIENTS],
    nextPatientNumber: 1001 + SEED_PATIENTS.length,
    clicks: [],
    submissions: [],
    messages: [],
    staff: [],
    variant: null,
  };
}

export interface ApiOptions {
  /** How long POST /api/patients takes to answer: long enough to see a spinner. */
  readonly saveDelayMs: number;
}

export interface Api {
  /** Answers the request when the path is an API path; returns false otherwise. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    query: URLSearchParams,
  ): Promise<boolean>;
  reset(): void;
  /** The site variant switched on (POST /api/demo/variant), null for the plain sites. */
  variant(): DemoVariant | null;
  /** Cancels pending delayed answers so closing the server never waits on them. */
  close(): void;
}

function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, 'METHOD_NOT_ALLOWED', `Use ${allow}.`, { allow });
}

function isFormValue(value: unknown): value is FormValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

export function createApi(options: ApiOptions): Api {
  let state = freshState();
  const timers = new Set<NodeJS.Timeout>();

  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  /**
   * A POSTed person record (a patient, or the staff variant's member: the same form), validated
   * after the save delay, with the state it lands in.
   */
  async function savedPerson(req: IncomingMessage, kind: 'patient' | 'staff') {
    if (req.method !== 'POST') throw methodNotAllowed('GET, POST');
    // A save that straddles a reset lands in the state it started in, not the fresh one.
    const target = state;
    const body = await readJson(req);
    await delay(options.saveDelayMs);
    const result = validatePatient(body);
    if (!result.ok) {
      throw new HttpError(400, 'VALIDATION_FAILED', `The ${kind} record is not valid.`, {
        fields: result.errors,
      });
    }
    return { target, value: result.value };
  }

  async function patients(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const q = query.get('q') ?? '';
      sendJson(res, 200, { patients: state.patients.filter((p) => matchesQuery(p, q)) });
      return;
    }
    const { target, value } = await savedPerson(req, 'patient');
    const patient: Patient = { id: `P-${target.nextPatientNumber}`, ...value };
    target.nextPatientNumber += 1;
    target.patients.push(patient);
    sendJson(res, 201, { patient });
  }

  // The same validation as a patient's: the variant's point is that the form looks the same.
  async function staff(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { staff: state.staff });
      return;
    }
    const { target, value } = await savedPerson(req, 'staff');
    const member: StaffMember = { id: `S-${2001 + target.staff.length}`, ...value };
    target.staff.push(member);
    sendJson(res, 201, { staffMember: member });
  }

  async function variant(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { variant: state.variant });
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed('GET, POST');
    const parsed = parseVariantRequest(await readJson(req));
    if (!parsed.ok) throw new HttpError(400, 'VALIDATION_FAILED', parsed.message);
    state.variant = parsed.variant;
    sendJson(res, 200, { variant: state.variant });
  }

  async function rerenderClicks(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { clicks: state.clicks, total: state.clicks.length });
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed('GET, POST');
    const body = (await readJson(req)) as { itemId?: unknown } | null;
    const itemId = typeof body?.itemId === 'string' ? body.itemId.trim() : '';
    if (!itemId || itemId.length > 50) {
      throw new HttpError(400, 'VALIDATION_FAILED', 'itemId must be a non-empty string.');
    }
    const click: RerenderClick = { itemId, sequence: state.clicks.length + 1 };
    state.clicks.push(click);
    sendJson(res, 201, { click, total: state.clicks.length });
  }

  async function formSubmissions(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { submissions: state.submissions });
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed('GET, POST');
    const body = await readJson(req);
    const entries =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [];
    if (entries.length === 0 || entries.length > 50 || !entries.every(([, v]) => isFormValue(v))) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        'Body must be an object of up to 50 string, boolean or string-array values.',
      );
    }
    const submission: FormSubmission = {
      sequence: state.submissions.length + 1,
      values: Object.fromEntries(entries) as Record<string, FormValue>,
    };
    state.submissions.push(submission);
    sendJson(res, 201, { submission });
  }

  async function messages(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { messages: state.messages });
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed('GET, POST');
    const body = (await readJson(req)) as { to?: unknown; body?: unknown } | null;
    const to = typeof body?.to === 'string' ? body.to.trim() : '';
    const text = typeof body?.body === 'string' ? body.body.trim() : '';
    if (
      !SEED_PATIENTS.some((p) => `${p.firstName} ${p.lastName}` === to) ||
      !text ||
      text.length > 2_000
    )
      throw new HttpError(400, 'VALIDATION_FAILED', 'Choose a patient and write a message.');
    const message: SentMessage = { to, body: text, sequence: state.messages.length + 1 };
    state.messages.push(message);
    sendJson(res, 201, { message, messages: state.messages });
  }

  // Read-only: the board never changes, so a reset has nothing to undo here.
  async function jobs(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed('GET');
    const raw = query.get('page') ?? '1';
    const page = /^\d{1,3}$/.test(raw) ? jobBoardPage(Number(raw)) : null;
    if (!page) throw new HttpError(404, 'NOT_FOUND', `There is no job board page ${raw}.`);
    sendJson(res, 200, page);
  }

  // Read-only like the job board.
  async function catalog(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed('GET');
    const raw = query.get('page') ?? '1';
    const page = /^\d{1,3}$/.test(raw) ? catalogPage(Number(raw)) : null;
    if (!page) throw new HttpError(404, 'NOT_FOUND', `There is no catalogue page ${raw}.`);
    sendJson(res, 200, page);
  }

  async function catalogPrices(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed('GET');
    sendJson(res, 200, { rows: PRICE_TABLE });
  }

  const routes: Record<
    string,
    (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void>
  > = {
    [DEMO_API.patients]: patients,
    [DEMO_API.rerenderClicks]: rerenderClicks,
    [DEMO_API.formSubmissions]: formSubmissions,
    [DEMO_API.messages]: messages,
    [DEMO_API.jobs]: jobs,
    [DEMO_API.catalog]: catalog,
    [DEMO_API.catalogPrices]: catalogPrices,
    [DEMO_API.staff]: staff,
    [DEMO_API.variant]: variant,
  };

  return {
    async handle(req, res, pathname, query) {
      if (pathname === DEMO_API.reset) {
        if (req.method !== 'POST') throw methodNotAllowed('POST');
        state = freshState();
        res.writeHead(204, { 'cache-control': 'no-store' }).end();
        return true;
      }
      if (!pathname.startsWith('/api/')) return false;
      const route = routes[pathname];
      if (!route) throw new HttpError(404, 'NOT_FOUND', `No API endpoint at ${pathname}.`);
      await route(req, res, query);
      return true;
    },
    reset() {
      state = freshState();
    },
    variant() {
      return state.variant;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
