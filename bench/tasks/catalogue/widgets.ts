// Widgets: a custom combobox (a button and a listbox, no native select), an overlay dialog
// that covers the page (opened on load, like a cookie banner), a list whose DOM is rebuilt
// every 500 ms, a same-origin iframe and an open shadow root.
import { DEMO_API, DEMO_PAGES } from '@tandem/demo-sites';
import { allOf, demoJson, fail, pass, textIs, type Check } from '../checks';
import type { BenchTask, TaskGoal } from '../task';

/** The re-rendering list's approvals, in order, are exactly these invoices. */
function approved(...invoices: string[]): Check {
  return async (ctx) => {
    const { clicks } = await demoJson<{ clicks: { itemId: string }[] }>(
      ctx,
      DEMO_API.rerenderClicks,
    );
    const got = clicks.map((c) => c.itemId).join(', ');
    return got === invoices.join(', ') ? pass(`approved ${got}`) : fail(`approved [${got}]`);
  };
}

const overlayClosed: Check = async (ctx) =>
  (await ctx.page.locator('#overlay').isHidden())
    ? pass('dialog closed')
    : fail('the dialog is still open');

/** `goal` names the department; the combobox then shows it chosen. */
const department = (goal: string, name: string): TaskGoal => ({
  goal,
  script: {
    kind: 'steps',
    intents: [
      { kind: 'click', target: 'Department', role: 'combo' },
      { kind: 'click', target: name, role: 'opt' },
    ],
  },
  check: textIs('#department-choice', `Selected department: ${name}`),
});

const approveOne = (invoice: string): TaskGoal => ({
  goal: `Approve invoice ${invoice}`,
  script: { kind: 'steps', intents: [{ kind: 'click', target: `Approve ${invoice}` }] },
  check: approved(invoice),
});

const approveTwo = (first: string, second: string): TaskGoal => ({
  goal: `Approve invoices ${first} and ${second}`,
  script: {
    kind: 'steps',
    intents: [
      { kind: 'click', target: `Approve ${first}` },
      { kind: 'click', target: `Approve ${second}` },
    ],
  },
  check: approved(first, second),
});

const greet = (name: string): TaskGoal => ({
  goal: `Greet the help widget as ${name}`,
  script: {
    kind: 'steps',
    intents: [
      { kind: 'type', target: 'Your name', text: name },
      { kind: 'click', target: 'Say hello' },
    ],
  },
  check: textIs('#host-status', `Widget says: Hello, ${name}!`),
});

const rename = (name: string): TaskGoal => ({
  goal: `Change my display name to ${name}`,
  script: {
    kind: 'steps',
    intents: [
      { kind: 'type', target: 'Display name', text: name },
      { kind: 'click', target: 'Update name' },
    ],
    done: new RegExp(`Display name updated to ${name}`),
  },
  check: allOf(
    textIs('profile-editor #status', `Display name updated to ${name}.`),
    textIs('#header-name', name),
  ),
});

export const WIDGET_TASKS: BenchTask[] = [
  {
    id: 'dropdown-neurology',
    category: 'dropdown',
    start: DEMO_PAGES.dropdown,
    ...department('Choose Neurology as the department', 'Neurology'),
    rerun: department('Choose Cardiology as the department', 'Cardiology'),
  },
  {
    id: 'dropdown-pediatrics',
    category: 'dropdown',
    start: DEMO_PAGES.dropdown,
    ...department('Pick Pediatrics for the visit', 'Pediatrics'),
    rerun: department('Pick Dermatology for the visit', 'Dermatology'),
  },
  {
    id: 'modal-confirm',
    category: 'modal',
    start: DEMO_PAGES.modal,
    goal: 'Confirm the changes through the dialog',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Open dialog' },
        { kind: 'click', target: 'Confirm' },
      ],
      done: /Changes confirmed\./,
    },
    check: allOf(textIs('#page-status', 'Changes confirmed.'), overlayClosed),
  },
  {
    id: 'modal-banner-draft',
    category: 'modal',
    start: DEMO_PAGES.modalOpen,
    // The dialog covers the page on load, like a cookie banner: it has to go first.
    goal: 'Save the article as a draft',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Close' },
        { kind: 'click', target: 'Save draft' },
      ],
      done: /Draft saved\./,
    },
    check: allOf(textIs('#page-status', 'Draft saved.'), overlayClosed),
  },
  {
    id: 'modal-banner-confirm',
    category: 'modal',
    start: DEMO_PAGES.modalOpen,
    goal: 'Accept the changes the open dialog asks about',
    script: {
      kind: 'steps',
      intents: [{ kind: 'click', target: 'Confirm' }],
      done: /Changes confirmed\./,
    },
    check: allOf(textIs('#page-status', 'Changes confirmed.'), overlayClosed),
  },
  {
    id: 'modal-publish',
    category: 'modal',
    start: DEMO_PAGES.modal,
    // A single command: the SIMPLE path.
    goal: 'Click Publish',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Publish' }] },
    check: textIs('#page-status', 'Article published.'),
  },
  {
    id: 'rerender-approve',
    category: 'tricky-dom',
    start: DEMO_PAGES.rerender,
    ...approveOne('INV-1003'),
    rerun: approveOne('INV-1004'),
  },
  {
    id: 'rerender-approve-two',
    category: 'tricky-dom',
    start: DEMO_PAGES.rerender,
    ...approveTwo('INV-1002', 'INV-1005'),
    rerun: approveTwo('INV-1001', 'INV-1004'),
  },
  {
    id: 'iframe-greet',
    category: 'tricky-dom',
    start: DEMO_PAGES.iframe,
    ...greet('Jas'),
    rerun: greet('Ana'),
  },
  {
    id: 'shadow-rename',
    category: 'tricky-dom',
    start: DEMO_PAGES.shadow,
    ...rename('Sam Rivera'),
    rerun: rename('Lou Reyes'),
  },
];
