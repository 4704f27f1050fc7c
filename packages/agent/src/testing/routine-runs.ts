// Verified runs for the routine tests: the add-patient form filled by one chain, then Save.
import {
  parseAction,
  ROUTINE_EXTRACT,
  type Routine,
  type RoutineStep,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { makePending } from '../nodes/pending-action';
import type { PageState } from '../page/page-state';
import { routineRecord } from '@tandem/store/testing';
import { compileRoutine } from '../routines/compile';
import { traceEntry, type RoutineTraceEntry } from '../routines/trace';
import type { PendingAction } from '../state';
import { pageOf, stateWith } from './state';

export const FORM_URL = 'https://emr.test/patients/new';
export const FORM: SemanticNodeV3[] = [
  { i: 'nav', r: 'link', n: 'Patients' },
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'last', r: 'inp', n: 'Last name' },
  { i: 'gender', r: 'sel', n: 'Gender' },
  { i: 'save', r: 'btn', n: 'Save' },
];
export const GOAL = 'Add a new patient Jas Patel, female';

export const form = (values: Record<string, string> = {}, extra: Partial<PageState> = {}) =>
  pageOf(
    FORM.map((n) => (values[n.i] !== undefined ? { ...n, v: values[n.i] } : n)),
    { url: FORM_URL, ...extra },
  );

export function sent(
  page: PageState,
  actions: string[],
  options: { stepIndex?: number; source?: PendingAction['source']; contingency?: string } = {},
): PendingAction {
  const state = stateWith({ currentStepIndex: options.stepIndex ?? 0 });
  const [first] = actions;
  const pending = makePending({
    state,
    page,
    thought: 'fill',
    action: parseAction(first ?? ''),
    chain:
      actions.length > 1
        ? { actions: actions.map((action, index) => ({ action, description: '', index })) }
        : null,
    source: options.source ?? 'action_generation',
  });
  return options.contingency ? { ...pending, contingency: options.contingency } : pending;
}

export const verdict = (success: boolean, reason = success ? 'ok' : 'failed') => ({
  success,
  reason,
  verificationTier: 1 as const,
});

export const FILLED = { first: 'Jas', last: 'Patel', gender: 'Female' };

/** The run of the add-patient form: one chain fills it, then Save moves to the record. */
export function formRun(): RoutineTraceEntry[] {
  const fill = sent(
    form(),
    ['setValue("first", "Jas")', 'setValue("last", "Patel")', 'select("gender", "Female")'],
    { stepIndex: 0 },
  );
  const save = sent(form(FILLED), ['click("save")'], { stepIndex: 1 });
  const saved = pageOf([{ i: 'p', r: 'link', n: 'Patients' }], {
    url: 'https://emr.test/patients/17',
    successMessages: ['Patient saved'],
    observations: { didNetworkOccur: true },
  });
  return [
    traceEntry(fill, form(FILLED), verdict(true, 'all 3 fields hold their values'), false),
    traceEntry(save, saved, verdict(true, 'the click navigated as expected'), false),
  ];
}

/** The routine `trace` compiles into for `query`, as the store would hold it (version 1). */
export function savedRoutine(query: string, trace: RoutineTraceEntry[]): Routine {
  const compiled = compileRoutine({ query, status: 'completed', trace });
  if (!compiled.ok) throw new Error(compiled.reason);
  return routineRecord(compiled.draft);
}

/**
 * The trace entry of a click on "Next page" made on the page `from` was read on, which led to
 * `to`: what a first run that read a list page by page leaves between two reads.
 */
export function nextPageClick(from: RoutineTraceEntry, to: string): RoutineTraceEntry {
  const { read: _read, collect: _collect, ...entry } = from;
  return {
    ...entry,
    actions: [
      {
        action: { name: 'click', args: { id: 'next' } },
        target: {
          role: 'link',
          name: 'Next page',
          fingerprint: 'link|Next page|f0|#0',
          locators: [{ by: 'role-name', role: 'link', name: 'Next page' }],
        },
      },
    ],
    expect: { ...from.expect, urlChanged: true, url: to },
  };
}

/** A compiled step's expectation: what the page was after it (the URL, changed or not). */
const expectation = (url: string, urlChanged: boolean): RoutineStep['expect'] => ({
  tier: 1,
  urlChanged,
  url,
  domChanged: true,
  network: false,
  fieldsHold: true,
  text: [],
  reason: 'as seen',
});

/** A compiled step that reads the page at `url` with a saved extraction. */
export const readStep = (url: string): RoutineStep => ({
  action: ROUTINE_EXTRACT,
  target: null,
  value: 'strategy-1',
  chained: false,
  expect: expectation(url, false),
  safety: 'safe',
  optional: false,
  page: { url },
});

/** Compiled steps of a paged read: read the page at `from`, click Next page (to `to`), read. */
export function pagedSteps(from: string, to: string, urlChanged = true): RoutineStep[] {
  const click: RoutineStep = {
    action: 'click',
    target: {
      fingerprint: 'link|Next page|f0|#0',
      locators: [{ by: 'role-name', role: 'link', name: 'Next page' }],
    },
    value: null,
    chained: false,
    expect: expectation(to, urlChanged),
    safety: 'safe',
    optional: false,
    page: { url: from },
  };
  return [readStep(from), click, readStep(to)];
}
