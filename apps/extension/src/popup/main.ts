// Popup: type a goal, watch each step live (thought, action, verification), stop the task,
// read the final answer or the question. It renders the run state from storage, so reopening
// the popup mid-task shows everything so far.
import { loadRun, runKey, type RunState, type StepView } from '../shared/run-state';
import type { WorkerReply, WorkerRequest } from '../shared/messages';

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

function render(run: RunState | null): void {
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
  render(await loadRun(storage, tabId));
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[runKey(tabId)]) void loadRun(storage, tabId).then(render);
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
