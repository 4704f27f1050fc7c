// Widgets: a custom combobox (a button and a listbox, no native select), an overlay dialog
// that covers the page (opened on load, like a cookie banner), a list whose DOM is rebuilt
// every 500 ms, a same-origin iframe and an open shadow root.
import { DEMO_API, DEMO_PAGES } from '@tandem/demo-sites';
import { allOf, demoJson, fail, pass, textIs, type Check } from '../checks';
import type { BenchTask } from '../task';

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

const department = (name: string): BenchTask['script'] => ({
  kind: 'steps',
  intents: [
    { kind: 'click', target: 'Department', role: 'combo' },
    { kind: 'click', target: name, role: 'opt' },
  ],
});

export const WIDGET_TASKS: BenchTask[] = [
  {
    id: 'dropdown-neurology',
    category: 'dropdown',
    start: DEMO_PAGES.dropdown,
    goal: 'Choose Neurology as the department',
    script: department('Neurology'),
    check: textIs('#department-choice', 'Selected department: Neurology'),
  },
  {
    id: 'dropdown-pediatrics',
    category: 'dropdown',
    start: DEMO_PAGES.dropdown,
    goal: 'Pick Pediatrics for the visit',
    script: department('Pediatrics'),
    check: textIs('#department-choice', 'Selected department: Pediatrics'),
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
    goal: 'Approve invoice INV-1003',
    script: { kind: 'steps', intents: [{ kind: 'click', target: 'Approve INV-1003' }] },
    check: approved('INV-1003'),
  },
  {
    id: 'rerender-approve-two',
    category: 'tricky-dom',
    start: DEMO_PAGES.rerender,
    goal: 'Approve invoices INV-1002 and INV-1005',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Approve INV-1002' },
        { kind: 'click', target: 'Approve INV-1005' },
      ],
    },
    check: approved('INV-1002', 'INV-1005'),
  },
  {
    id: 'iframe-greet',
    category: 'tricky-dom',
    start: DEMO_PAGES.iframe,
    goal: 'Greet the help widget as Jas',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'type', target: 'Your name', text: 'Jas' },
        { kind: 'click', target: 'Say hello' },
      ],
    },
    check: textIs('#host-status', 'Widget says: Hello, Jas!'),
  },
  {
    id: 'shadow-rename',
    category: 'tricky-dom',
    start: DEMO_PAGES.shadow,
    goal: 'Change my display name to Sam Rivera',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'type', target: 'Display name', text: 'Sam Rivera' },
        { kind: 'click', target: 'Update name' },
      ],
      done: /Display name updated to Sam Rivera/,
    },
    check: allOf(
      textIs('profile-editor #status', 'Display name updated to Sam Rivera.'),
      textIs('#header-name', 'Sam Rivera'),
    ),
  },
];
