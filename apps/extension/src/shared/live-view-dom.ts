// The live view's DOM, shared by the popup and the side panel. Everything shown comes from the
// page the agent works on or from a model, so it is set with textContent only, never as HTML.
// The skeleton is built once; render() updates it in place and keeps unchanged steps, so an
// opened "Details", a half-typed answer and the focus survive the once-a-second tick.
import type { CollectedCounts } from '@tandem/contracts';
import type { ExtractionFormat } from './api-client';
import {
  collectedLine,
  isActive,
  mergeCounts,
  metaLine,
  statusLine,
  totalCount,
} from './live-view-format';
import {
  approvalModel,
  editedAction,
  extractionRows,
  planItems,
  routineBanner,
  stepModel,
  type ApprovalModel,
  type ExtractionRow,
  type PlanItem,
  type PlanMark,
  type StepModel,
} from './live-view-model';
import type { RunState } from './run-state';

export interface LiveViewInput {
  run: RunState | null;
  now: number;
  /** Stop was pressed here and the run has not yet said it stopped. */
  stopping: boolean;
  /** An answer is on its way to the worker. */
  sending: boolean;
  answerError?: string;
  /** An approval decision is on its way to the worker. */
  deciding?: boolean;
  approvalError?: string;
  /** A problem with something the user did here (download, stop), shown until the next one. */
  notice?: string;
  /** Counts raised live by the task's server-sent events, ahead of the stored run. */
  liveCounts: CollectedCounts;
  /** The status line when the tab has no run. */
  empty: string;
  /** The goal above the status (the side panel; the popup has it in its text box). */
  showGoal: boolean;
  /** Collect target ("of 25"), when known. */
  collectTarget?: number;
}

export interface LiveViewHandlers {
  stop(): void;
  answer(text: string): void;
  /** Approve the step on the card; `actions`: as the user edited them. */
  approve(actions?: string[]): void;
  /** Reject it, with what the user said, if anything. */
  reject(note?: string): void;
  download(): void;
  downloadExtraction(extractionId: string, format: ExtractionFormat): void;
}

export interface LiveView {
  render(input: LiveViewInput): void;
}

type Attrs = Record<string, string>;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  // Strings become text nodes: page content never reaches the HTML parser.
  node.append(...children);
  return node;
}

const setText = (node: HTMLElement, text: string): void => {
  if (node.textContent !== text) node.textContent = text;
};

/** The approval card's elements, wired to the handlers (render fills them in). */
function approvalCard(handlers: LiveViewHandlers) {
  const parts = {
    approval: el('section', {
      id: 'approval',
      class: 'lv-approval',
      'aria-labelledby': 'approval-title',
    }),
    approvalTitle: el(
      'h2',
      { id: 'approval-title', class: 'lv-approval-title' },
      'Approve this step?',
    ),
    approvalReasons: el('ul', { id: 'approval-reasons', class: 'lv-approval-reasons' }),
    approvalItems: el('ol', {
      id: 'approval-actions',
      class: 'lv-approval-actions',
      'aria-label': 'What the step does',
    }),
    approve: el('button', { id: 'approve', type: 'button', class: 'lv-approve' }, 'Approve'),
    editStep: el('button', { id: 'edit-step', type: 'button' }, 'Edit'),
    reject: el('button', { id: 'reject', type: 'button', class: 'lv-reject' }, 'Reject'),
    rejectNote: el('input', {
      id: 'reject-note',
      type: 'text',
      autocomplete: 'off',
      'aria-label': 'Why not? (optional, for the agent)',
      placeholder: 'Why not? (optional, for the agent)',
    }),
    approvalError: el('p', { id: 'approval-error', class: 'lv-error', role: 'alert' }),
  };
  parts.approval.append(
    parts.approvalTitle,
    parts.approvalReasons,
    parts.approvalItems,
    el('div', { class: 'lv-approval-buttons' }, parts.approve, parts.editStep, parts.reject),
    parts.rejectNote,
    parts.approvalError,
  );
  parts.approve.addEventListener('click', () => {
    const editing = parts.approval.dataset.editing === 'true';
    handlers.approve(editing ? editedActions(parts.approvalItems) : undefined);
  });
  parts.editStep.addEventListener('click', () => {
    parts.approval.dataset.editing = 'true';
    for (const input of parts.approvalItems.querySelectorAll('input')) input.hidden = false;
    parts.approvalItems.querySelector('input')?.focus();
    parts.editStep.hidden = true;
    setText(parts.approve, 'Approve with my edits');
  });
  parts.reject.addEventListener('click', () => {
    const note = parts.rejectNote.value.trim();
    handlers.reject(note === '' ? undefined : note);
  });
  return parts;
}

/** The elements render() updates, created once. */
function skeleton(handlers: LiveViewHandlers) {
  const parts = {
    goal: el('p', { id: 'goal-text', class: 'lv-goal' }),
    status: el('p', { id: 'status', class: 'lv-status', role: 'status', 'aria-live': 'polite' }),
    stop: el('button', { id: 'stop', type: 'button', class: 'lv-stop' }, 'Stop'),
    meta: el('p', { id: 'meta', class: 'lv-meta' }),
    notice: el('p', { id: 'notice', class: 'lv-notice', role: 'alert' }),
    routine: el('section', { id: 'routine', class: 'lv-routine', 'aria-label': 'Routine' }),
    routineLine: el('p', { id: 'routine-line', class: 'lv-routine-line' }),
    // Announced once, when it appears: the user should hear that the agent took over.
    routineFallback: el('p', {
      id: 'routine-fallback',
      class: 'lv-routine-fallback',
      role: 'status',
    }),
    question: el('section', { id: 'question', class: 'lv-question', 'aria-label': 'Question' }),
    questionText: el('p', { id: 'question-text', class: 'lv-question-text' }),
    answerForm: el('form', { id: 'answer-form', class: 'lv-answer-form' }),
    answerInput: el('input', {
      id: 'answer-input',
      type: 'text',
      autocomplete: 'off',
      'aria-label': 'Your answer',
      placeholder: 'Your answer',
    }),
    send: el('button', { id: 'send-answer', type: 'submit' }, 'Send'),
    answerError: el('p', { id: 'answer-error', class: 'lv-error', role: 'alert' }),
    ...approvalCard(handlers),
    result: el('section', { id: 'answer', class: 'lv-result', 'aria-labelledby': 'answer-title' }),
    resultTitle: el('h2', { id: 'answer-title', class: 'lv-result-title' }),
    resultText: el('p', { id: 'result-text', class: 'lv-result-text' }),
    collected: el('section', { id: 'collected', class: 'lv-collected' }),
    collectedCount: el('span', { id: 'collected-count', 'aria-live': 'polite' }),
    download: el('button', { id: 'download', type: 'button' }, 'Download CSV'),
    extractions: el('section', {
      id: 'extractions',
      class: 'lv-extractions',
      'aria-label': 'Extracted data',
    }),
    extractionList: el('ul', { id: 'extraction-list', class: 'lv-extraction-list' }),
    plan: el('ol', { id: 'plan', class: 'lv-plan', 'aria-label': 'Plan' }),
    planSection: el('section', { id: 'plan-section', class: 'lv-section' }),
    steps: el('ol', { id: 'steps', class: 'lv-steps', 'aria-label': 'Steps' }),
    stepsSection: el('section', { id: 'steps-section', class: 'lv-section' }),
  };
  // Hidden until render() has something to show in them (and a question "appears").
  for (const part of [
    parts.goal,
    parts.stop,
    parts.notice,
    parts.routine,
    parts.routineFallback,
    parts.question,
    parts.answerError,
    parts.approval,
    parts.approvalError,
    parts.result,
    parts.collected,
    parts.extractions,
    parts.planSection,
    parts.stepsSection,
  ])
    part.hidden = true;
  parts.routine.append(parts.routineLine, parts.routineFallback);
  parts.answerForm.append(parts.answerInput, parts.send);
  parts.question.append(parts.questionText, parts.answerForm, parts.answerError);
  parts.result.append(parts.resultTitle, parts.resultText);
  parts.collected.append(parts.collectedCount, parts.download);
  parts.extractions.append(parts.extractionList);
  parts.planSection.append(el('h2', {}, 'Plan'), parts.plan);
  parts.stepsSection.append(el('h2', {}, 'Steps'), parts.steps);
  parts.stop.addEventListener('click', () => handlers.stop());
  parts.download.addEventListener('click', () => handlers.download());
  parts.answerForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = parts.answerInput.value.trim();
    if (text) handlers.answer(text);
  });
  return parts;
}

type Parts = ReturnType<typeof skeleton>;

const MARK_SYMBOL: Record<Exclude<PlanMark, 'todo'>, string> = {
  done: '✓',
  current: '▶',
  failed: '✗',
  skipped: '↷',
};
const MARK_LABEL: Record<PlanMark, string> = {
  done: 'done',
  current: 'current step',
  failed: 'failed',
  skipped: 'skipped',
  todo: 'to do',
};

function planItem(item: PlanItem, position: number): HTMLLIElement {
  const symbol = item.mark === 'todo' ? String(position + 1) : MARK_SYMBOL[item.mark];
  const li = el(
    'li',
    { class: `lv-plan-item mark-${item.mark}` },
    el('span', { class: 'lv-mark', 'aria-hidden': 'true' }, symbol),
    el('span', { class: 'lv-plan-text' }, item.text),
    el('span', { class: 'lv-sr' }, ` (${MARK_LABEL[item.mark]})`),
  );
  if (item.mark === 'current') li.setAttribute('aria-current', 'step');
  return li;
}

function verdictLine(verdict: NonNullable<StepModel['verdict']>): HTMLDivElement {
  const { ok, reason } = verdict;
  return el(
    'div',
    { class: `lv-verdict ${ok ? 'ok' : 'bad'}` },
    el('span', { 'aria-hidden': 'true' }, ok ? '✓ ' : '✗ '),
    el('span', { class: 'lv-sr' }, ok ? 'Verified: ' : 'Verification failed: '),
    reason,
  );
}

/**
 * A step: its plain-language text, which opens the raw action and the thought when clicked
 * (a <details> whose summary is the text itself, so no extra line per step), then its verdict.
 */
function stepItem(step: StepModel, open: boolean): HTMLLIElement {
  const li = el('li', { class: `lv-step step-${step.kind}` });
  const text = el('span', { class: 'lv-step-text' }, step.text);
  const thought = step.thought.trim();
  if (step.raw !== undefined || (thought !== '' && thought !== step.text)) {
    const details = el(
      'details',
      { class: 'lv-details' },
      el('summary', { title: 'Show the action and the thought' }, text),
    );
    if (step.raw !== undefined) details.append(el('pre', { class: 'lv-raw' }, step.raw));
    if (thought) details.append(el('p', { class: 'lv-thought' }, thought));
    details.open = open;
    li.append(details);
  } else {
    li.append(text);
  }
  if (step.verdict) li.append(verdictLine(step.verdict));
  return li;
}

/**
 * Replaces only the items whose content changed (by `key`), so an opened "Details" and a
 * focused button survive the once-a-second render. `build` gets the item it replaces.
 */
function renderKeyed<M extends { key: string }>(
  list: HTMLElement,
  models: readonly M[],
  build: (model: M, existing: HTMLElement | undefined) => HTMLElement,
): void {
  const current = Array.from(list.children) as HTMLElement[];
  models.forEach((model, i) => {
    const existing = current[i];
    if (existing?.dataset.key === model.key) return;
    const item = build(model, existing);
    item.dataset.key = model.key;
    if (existing) existing.replaceWith(item);
    else list.append(item);
  });
  for (const extra of current.slice(models.length)) extra.remove();
}

/** Steps keep their "Details" open when their content changes. */
const renderSteps = (list: HTMLOListElement, models: StepModel[]): void =>
  renderKeyed(list, models, (model, existing) =>
    stepItem(model, existing?.querySelector('details')?.open ?? false),
  );

/** An extraction: its line, then a button per file it can be downloaded as. */
function extractionItem(row: ExtractionRow, handlers: LiveViewHandlers): HTMLLIElement {
  const buttons = row.downloads.map((download) => {
    const button = el(
      'button',
      {
        type: 'button',
        class: `lv-download-${download.format}`,
        'aria-label': download.label,
        'data-format': download.format,
      },
      download.text,
    );
    button.addEventListener('click', () =>
      handlers.downloadExtraction(row.extractionId, download.format),
    );
    return button;
  });
  return el(
    'li',
    { class: 'lv-extraction', 'data-extraction-id': row.extractionId },
    el('span', { class: 'lv-extraction-text' }, row.text),
    ...(buttons.length > 0 ? [el('span', { class: 'lv-extraction-actions' }, ...buttons)] : []),
  );
}

function renderExtractions(parts: Parts, run: RunState | null, handlers: LiveViewHandlers): void {
  const rows = extractionRows(run?.extractions ?? [], run?.taskId);
  parts.extractions.hidden = rows.length === 0;
  renderKeyed(parts.extractionList, rows, (row) => extractionItem(row, handlers));
}

function renderQuestion(parts: Parts, input: LiveViewInput): void {
  const question = input.run?.status === 'needs_input' ? (input.run.question ?? '') : '';
  const asking = question !== '' && !input.stopping;
  const appeared = asking && parts.question.hidden;
  parts.question.hidden = !asking;
  if (parts.questionText.textContent !== question) {
    parts.questionText.textContent = question;
    parts.answerInput.value = '';
  }
  parts.answerInput.disabled = input.sending;
  parts.send.disabled = input.sending;
  setText(parts.send, input.sending ? 'Sending…' : 'Send');
  parts.answerError.hidden = !input.answerError;
  setText(parts.answerError, input.answerError ?? '');
  if (appeared) parts.answerInput.focus();
}

/** An action of the card, with its field to edit (hidden until the user presses Edit). */
function approvalItem(item: ApprovalModel['items'][number]): HTMLLIElement {
  const li = el('li', { class: 'lv-approval-action', 'data-action': item.action });
  li.append(el('span', { class: 'lv-approval-text' }, item.text));
  if (item.edit) {
    const input = el('input', { type: 'text', 'aria-label': item.edit.label, autocomplete: 'off' });
    input.value = item.edit.value;
    input.dataset.original = item.edit.value;
    input.hidden = true;
    li.append(input);
  }
  return li;
}

/** The card's actions with the user's edits in place. */
function editedActions(list: HTMLOListElement): string[] {
  return Array.from(list.children).map((li) => {
    const action = (li as HTMLElement).dataset.action ?? '';
    const input = li.querySelector('input');
    if (!input) return action;
    const original = input.dataset.original ?? '';
    return editedAction({ text: '', action, edit: { label: '', value: original } }, input.value);
  });
}

function renderApproval(parts: Parts, input: LiveViewInput): void {
  const model = input.stopping ? null : approvalModel(input.run);
  const appeared = model !== null && parts.approval.hidden;
  parts.approval.hidden = model === null;
  if (model && parts.approval.dataset.key !== model.key) {
    // A new card: its content, out of edit mode.
    parts.approval.dataset.key = model.key;
    delete parts.approval.dataset.editing;
    parts.approvalReasons.replaceChildren(...model.reasons.map((r) => el('li', {}, r)));
    parts.approvalItems.replaceChildren(...model.items.map(approvalItem));
    parts.editStep.hidden = !model.items.some((i) => i.edit);
    setText(parts.approve, 'Approve');
    parts.rejectNote.value = '';
  }
  if (!model) delete parts.approval.dataset.key;
  const deciding = input.deciding === true;
  parts.approve.disabled = deciding;
  parts.reject.disabled = deciding;
  parts.editStep.disabled = deciding;
  parts.approvalError.hidden = !input.approvalError;
  setText(parts.approvalError, input.approvalError ?? '');
  if (appeared) parts.approve.focus();
}

const RESULT_TITLE: Partial<Record<RunState['status'], string>> = {
  completed: 'Answer',
  failed: 'What went wrong',
  error: 'Error',
};

function renderResult(parts: Parts, run: RunState | null): void {
  const text = run?.status === 'error' ? run.error : run?.status !== 'running' ? run?.result : '';
  const title = run ? RESULT_TITLE[run.status] : undefined;
  const shown = Boolean(text && title);
  parts.result.hidden = !shown;
  parts.result.className = `lv-result ${run?.status === 'completed' ? 'ok' : 'bad'}`;
  setText(parts.resultTitle, title ?? '');
  setText(parts.resultText, shown ? (text ?? '') : '');
}

function renderCollected(parts: Parts, input: LiveViewInput): void {
  const run = input.run;
  const counts = mergeCounts(run?.collected ?? {}, input.liveCounts);
  const line = run ? collectedLine(counts, run.duplicatesSkipped, input.collectTarget) : null;
  parts.collected.hidden = line === null;
  parts.download.hidden = totalCount(counts) === 0 || !run?.taskId;
  // Each part of the line stays whole: it wraps between "12 items" and "3 duplicates".
  if (parts.collectedCount.textContent !== (line ?? ''))
    parts.collectedCount.replaceChildren(
      ...(line ?? '')
        .split(' · ')
        .flatMap((part, i) => [
          ...(i > 0 ? [' · '] : []),
          el('span', { class: 'lv-nowrap' }, part),
        ]),
    );
}

function renderRoutine(parts: Parts, run: RunState | null): void {
  const banner = routineBanner(run);
  parts.routine.hidden = banner === null;
  if (parts.routine.dataset.key === banner?.key) return;
  if (banner) parts.routine.dataset.key = banner.key;
  else delete parts.routine.dataset.key;
  setText(parts.routineLine, banner?.line ?? '');
  setText(parts.routineFallback, banner?.fallback ?? '');
  parts.routineFallback.hidden = !banner?.fallback;
}

function renderHeader(parts: Parts, input: LiveViewInput): void {
  const { run } = input;
  const status = statusLine(run, input);
  setText(parts.status, status.text);
  parts.status.className = `lv-status tone-${status.tone}`;
  // A countdown changing every second is not worth announcing every second.
  parts.status.setAttribute('aria-live', status.tone === 'wait' ? 'off' : 'polite');
  parts.stop.hidden = !isActive(run);
  parts.stop.disabled = input.stopping;
  setText(parts.goal, run?.goal ?? '');
  parts.goal.hidden = !input.showGoal || !run?.goal;
  const meta = run ? metaLine(run, input.now) : '';
  setText(parts.meta, meta);
  parts.meta.hidden = meta === '';
  setText(parts.notice, input.notice ?? '');
  parts.notice.hidden = !input.notice;
}

/** Builds the live view into `root` and returns its renderer. */
export function createLiveView(root: HTMLElement, handlers: LiveViewHandlers): LiveView {
  const parts = skeleton(handlers);
  root.classList.add('live-view');
  root.replaceChildren(
    parts.goal,
    el('div', { class: 'lv-status-row' }, parts.status, parts.stop),
    parts.meta,
    parts.routine,
    parts.notice,
    parts.question,
    parts.approval,
    parts.result,
    parts.collected,
    parts.extractions,
    parts.planSection,
    parts.stepsSection,
  );
  return {
    render(input) {
      renderHeader(parts, input);
      renderRoutine(parts, input.run);
      renderQuestion(parts, input);
      renderApproval(parts, input);
      renderResult(parts, input.run);
      renderCollected(parts, input);
      renderExtractions(parts, input.run, handlers);
      const plan = input.run ? planItems(input.run) : [];
      parts.planSection.hidden = plan.length === 0;
      parts.plan.replaceChildren(
        ...plan.flatMap((item, position) => [
          // A hierarchical plan's sub-task headings sit between its steps, outside the count.
          ...(item.part
            ? [el('li', { class: 'lv-plan-part', role: 'presentation' }, item.part)]
            : []),
          planItem(item, position),
        ]),
      );
      const steps = (input.run?.steps ?? []).map((s) => stepModel(s, input.run?.result));
      parts.stepsSection.hidden = steps.length === 0;
      renderSteps(parts.steps, steps);
    },
  };
}
