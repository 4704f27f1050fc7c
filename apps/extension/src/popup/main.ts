// Popup: type a goal, watch each step live (thought, action, verification), stop the task,
// read the final answer or the question. It renders the run state from storage, so reopening
// the popup mid-task shows everything so far.
import type { CollectedCounts } from '@tandem/contracts';
import { createApiClient, type ApiClient } from '../shared/api-client';
import { loadRun, runKey, type RunState, type StepView } from '../shared/run-state';
import type { WorkerReply, WorkerRequest } from '../shared/messages';
import { loadSettings } from '../shared/settings';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const storage = {
  get: (key: string) => chrome.storage.local.get(key),
  set: (items: Record<string, unknown>) => chrome.storage.local.set(items),
  remove: (key: string | string[]) => chrome.storage.local.remove(key),
};

async function activeTabId(): Promise<number | null> {
  // Tests open the popup as a page and point it at a tab with ?tab=<id>.
  const fromQuery = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(fromQuery) && fromQuery > 0) return fromQuery;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

async function send(request: WorkerRequest): Promise<WorkerReply> {
  return (await chrome.runtime.sendMessage(request)) as WorkerReply;
}

function stepItem(step: StepView): HTMLLIElement {
  const li = document.createElement('li');
  const thought = document.createElement('div');
  thought.className = 'thought';
  thought.textContent = step.thought;
  li.append(thought);
  const actionText = step.chain && step.chain.length > 1 ? step.chain.join('  →  ') : step.action;
  if (actionText) {
    const action = document.createElement('div');
    action.className = 'action';
    action.textContent = actionText;
    li.append(action);
  }
  if (step.verification) {
    const v = document.createElement('div');
    v.className = `verify ${step.verification.success ? 'ok' : 'bad'}`;
    v.textContent = `${step.verification.success ? '✓ previous step verified' : '✗ previous step failed'}: ${step.verification.reason}`;
    li.append(v);
  }
  return li;
}

const STATUS_TEXT: Record<RunState['status'], string> = {
  running: 'Working…',
  completed: 'Done.',
  failed: 'The task failed.',
  stopped: 'Stopped.',
  needs_input: 'I need more information.',
  error: 'Something went wrong.',
};

// Items collected so far: the worker's count after each step, raised live by the task's
// server-sent events while the model works through a page.
let liveCounts: CollectedCounts = {};
let following: { taskId: string; abort: AbortController } | null = null;

function mergedCounts(run: RunState | null): CollectedCounts {
  const counts: CollectedCounts = { ...(run?.collected ?? {}) };
  if (following && run?.taskId === following.taskId) {
    for (const [type, n] of Object.entries(liveCounts))
      counts[type] = Math.max(counts[type] ?? 0, n);
  }
  return counts;
}

function renderCollected(run: RunState | null): void {
  const counts = mergedCounts(run);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  $<HTMLElement>('collected').hidden = total === 0 || !run?.taskId;
  const kinds = Object.entries(counts)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  $<HTMLElement>('collected-count').textContent =
    `Collected ${total} item${total === 1 ? '' : 's'} (${kinds})`;
}

function follow(api: ApiClient, run: RunState | null, rerender: () => void): void {
  const taskId = run?.status === 'running' ? run.taskId : undefined;
  if (following && following.taskId !== taskId) {
    following.abort.abort();
    following = null;
  }
  if (!taskId || following) return;
  const abort = new AbortController();
  following = { taskId, abort };
  liveCounts = {};
  api
    .followEvents(
      taskId,
      (event) => {
        if (event.event !== 'collected') return;
        liveCounts[event.type] = Math.max(liveCounts[event.type] ?? 0, event.count);
        rerender();
      },
      abort.signal,
    )
    // The stored count still updates after every step; live updates are a bonus.
    .catch(() => undefined);
}

async function download(api: ApiClient, taskId: string): Promise<void> {
  const blob = await api.collectedCsv(taskId);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `tandem-${taskId}-collected.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function render(run: RunState | null): void {
  renderCollected(run);
  const steps = $<HTMLOListElement>('steps');
  const answer = $<HTMLElement>('answer');
  $<HTMLButtonElement>('stop').disabled = run?.status !== 'running';
  $<HTMLButtonElement>('start').disabled = run?.status === 'running';
  $<HTMLElement>('status').textContent = run
    ? `${STATUS_TEXT[run.status]} ${run.steps.length} step${run.steps.length === 1 ? '' : 's'}.`
    : 'Type a goal and press Start.';
  steps.replaceChildren(...(run?.steps ?? []).map(stepItem));
  const text =
    run?.status === 'needs_input'
      ? run.question
      : run?.status === 'error'
        ? run.error
        : run?.result;
  answer.hidden = !text;
  answer.className =
    run?.status === 'needs_input' ? 'question' : run?.status === 'completed' ? '' : 'failed';
  answer.textContent = text ?? '';
  if (run && $<HTMLTextAreaElement>('goal').value === '')
    $<HTMLTextAreaElement>('goal').value = run.goal;
}

async function main(): Promise<void> {
  const tabId = await activeTabId();
  if (tabId === null) {
    $<HTMLElement>('status').textContent = 'No active tab.';
    return;
  }
  const settings = await loadSettings(storage);
  const api = settings ? createApiClient(settings) : null;
  let current = await loadRun(storage, tabId);
  const show = (run: RunState | null) => {
    current = run;
    render(run);
    if (api) follow(api, run, () => renderCollected(current));
  };
  show(current);
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[runKey(tabId)]) void loadRun(storage, tabId).then(show);
  });
  $<HTMLButtonElement>('download').addEventListener('click', () => {
    const taskId = current?.taskId;
    if (!api || !taskId) return;
    void download(api, taskId).catch((error: unknown) => {
      $<HTMLElement>('status').textContent =
        error instanceof Error ? error.message : 'The download failed.';
    });
  });
  $<HTMLFormElement>('goal-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const goal = $<HTMLTextAreaElement>('goal').value.trim();
    if (!goal) return;
    void send({ type: 'task:start', tabId, goal }).then((reply) => {
      if (!reply.ok) $<HTMLElement>('status').textContent = reply.error ?? 'Could not start.';
    });
  });
  $<HTMLButtonElement>('stop').addEventListener(
    'click',
    () => void send({ type: 'task:stop', tabId }),
  );
  $<HTMLAnchorElement>('options').addEventListener('click', (event) => {
    event.preventDefault();
    void chrome.runtime.openOptionsPage();
  });
}

void main();
