// @vitest-environment jsdom
// The popup's "Run again with…" in jsdom: the words it shows, the form a routine asks for,
// what Run sends (and does not send when a field is empty), and that a failed request for the
// offers leaves the popup as it was.
import type { RoutineOffer, RoutineOfferList, RoutineRunRequest } from '@tandem/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  mountRunAgain,
  offerMeta,
  readableName,
  readRoutineForm,
  type RunAgainDeps,
} from './run-again';

// Midday UTC: the same calendar day in every time zone a test machine may run in.
const addPatient: RoutineOffer = {
  id: 'r-add',
  name: 'Add patient',
  goalTemplate: 'Add a new patient named {firstName} {lastName}',
  parameters: [
    { name: 'firstName', example: 'Jas' },
    { name: 'lastName', example: 'Kaur' },
  ],
  version: 2,
  savedAt: '2026-11-12T12:00:00.000Z',
  runs: 3,
};
const bookVisit: RoutineOffer = {
  id: 'r-book',
  name: 'Book visit',
  goalTemplate: 'Book a visit on {{Monday}} for {patient_name}',
  parameters: [{ name: 'patient_name', example: 'Jas Kaur' }],
  version: 1,
  savedAt: '2026-01-05T12:00:00.000Z',
  runs: 1,
};

describe('readableName', () => {
  it.each([
    ['firstName', 'First name'],
    ['date_of_birth', 'Date of birth'],
    ['zip2', 'Zip 2'],
    ['email', 'Email'],
  ])('%s reads as %s', (name, readable) => {
    expect(readableName(name)).toBe(readable);
  });
});

describe('offerMeta', () => {
  it('says when the routine was saved and how often it ran', () => {
    expect(offerMeta(addPatient)).toBe('saved 12 Nov · 3 runs');
    expect(offerMeta(bookVisit)).toBe('saved 5 Jan · 1 run');
    expect(offerMeta({ savedAt: 'garbage', runs: 0 })).toBe('0 runs');
  });
});

describe('readRoutineForm', () => {
  it('fills the template with the trimmed values and names the routine with them', () => {
    expect(readRoutineForm(addPatient, { firstName: ' Ann ', lastName: 'Lee' })).toEqual({
      ok: true,
      goal: 'Add a new patient named Ann Lee',
      routine: { routineId: 'r-add', values: { firstName: 'Ann', lastName: 'Lee' } },
    });
    // Doubled braces are literal text of the goal.
    expect(readRoutineForm(bookVisit, { patient_name: 'Ann' })).toMatchObject({
      ok: true,
      goal: 'Book a visit on {Monday} for Ann',
    });
  });

  it('refuses each empty or blank field by name', () => {
    expect(readRoutineForm(addPatient, { firstName: '  ' })).toEqual({
      ok: false,
      errors: { firstName: 'Enter first name.', lastName: 'Enter last name.' },
    });
  });

  it('refuses a routine whose template names a parameter it does not list', () => {
    const damaged = { ...addPatient, goalTemplate: 'Add {firstName} {middleName}' };
    const read = readRoutineForm(damaged, { firstName: 'Ann', lastName: 'Lee' });
    expect(read).toMatchObject({ ok: false, errors: {} });
    expect(read.ok ? '' : read.problem).toMatch(/cannot be filled/);
  });
});

describe('mountRunAgain', () => {
  let section: HTMLElement;
  let started: [string, RoutineRunRequest][];
  let logged: unknown[];

  beforeEach(() => {
    document.body.replaceChildren();
    section = document.body.appendChild(document.createElement('section'));
    section.id = 'run-again';
    section.hidden = true;
    started = [];
    logged = [];
  });

  const deps = (offers: () => Promise<RoutineOfferList>, startError?: string): RunAgainDeps => ({
    offers,
    start: (goal, routine) => {
      started.push([goal, routine]);
      return Promise.resolve(startError);
    },
    log: (_message, error) => logged.push(error),
  });
  const offering = (...items: RoutineOffer[]) => deps(() => Promise.resolve({ items }));
  const choices = () => [...section.querySelectorAll<HTMLButtonElement>('.run-again-choice')];
  const form = () => section.querySelector<HTMLFormElement>('form');
  const field = (label: string) => {
    const found = [...section.querySelectorAll('label')].find((l) => l.textContent === label);
    return document.getElementById(found?.htmlFor ?? '') as HTMLInputElement | null;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('lists each routine as a button with its saved date and runs, under a heading', async () => {
    await mountRunAgain(section, offering(addPatient, bookVisit));
    expect(section.hidden).toBe(false);
    const heading = section.querySelector('h2');
    expect(heading?.textContent).toBe('Run again with…');
    expect(section.getAttribute('aria-labelledby')).toBe(heading?.id);
    expect(choices().map((b) => [b.type, b.textContent])).toEqual([
      ['button', 'Add patient saved 12 Nov · 3 runs'],
      ['button', 'Book visit saved 5 Jan · 1 run'],
    ]);
    expect(form()).toBeNull();
  });

  it('asks for each parameter by its readable name, with its example as placeholder', async () => {
    await mountRunAgain(section, offering(addPatient, bookVisit));
    choices()[0]?.click();
    expect(choices()[0]?.getAttribute('aria-expanded')).toBe('true');
    expect(choices()[0]?.getAttribute('aria-controls')).toBe(form()?.id);
    expect([...section.querySelectorAll('label')].map((l) => l.textContent)).toEqual([
      'First name',
      'Last name',
    ]);
    expect(field('First name')?.placeholder).toBe('Jas');
    expect(field('Last name')?.placeholder).toBe('Kaur');
    expect(document.activeElement).toBe(field('First name'));
    const run = form()?.querySelector('button');
    expect([run?.type, run?.textContent]).toEqual(['submit', 'Run']);

    // Another routine replaces the form; choosing the open one again closes it.
    choices()[1]?.click();
    expect(section.querySelectorAll('form')).toHaveLength(1);
    expect(field('Patient name')).not.toBeNull();
    expect(choices()[0]?.getAttribute('aria-expanded')).toBe('false');
    choices()[1]?.click();
    expect(form()).toBeNull();
    expect(choices()[1]?.getAttribute('aria-expanded')).toBe('false');
  });

  it('sends nothing while a field is empty, and says which one inline', async () => {
    await mountRunAgain(section, offering(addPatient));
    choices()[0]?.click();
    const first = field('First name');
    if (first) first.value = 'Ann';
    form()?.requestSubmit();
    await settle();
    expect(started).toEqual([]);
    const last = field('Last name');
    expect(last?.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(last?.getAttribute('aria-describedby') ?? '');
    expect(error?.textContent).toBe('Enter last name.');
    expect(error?.hidden).toBe(false);
    expect(first?.hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(last);
  });

  it('starts the filled goal with the routine and its values (Enter submits like Run)', async () => {
    await mountRunAgain(section, offering(addPatient));
    choices()[0]?.click();
    const first = field('First name');
    const last = field('Last name');
    if (first && last) {
      first.value = 'Ann';
      last.value = 'Lee';
    }
    form()?.requestSubmit();
    await settle();
    expect(started).toEqual([
      [
        'Add a new patient named Ann Lee',
        { routineId: 'r-add', values: { firstName: 'Ann', lastName: 'Lee' } },
      ],
    ]);
    expect(last?.hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows why the start failed next to Run', async () => {
    await mountRunAgain(
      section,
      deps(() => Promise.resolve({ items: [bookVisit] }), 'No tab.'),
    );
    choices()[0]?.click();
    const name = field('Patient name');
    if (name) name.value = 'Ann';
    form()?.requestSubmit();
    await settle();
    const alert = form()?.querySelector<HTMLElement>('[role="alert"]');
    expect(alert?.textContent).toBe('No tab.');
    expect(alert?.hidden).toBe(false);
  });

  it('disables Run while the tab runs a task, and sends nothing then', async () => {
    const mounted = await mountRunAgain(section, offering(bookVisit));
    mounted.setBusy(true);
    choices()[0]?.click();
    const run = form()?.querySelector('button');
    expect(run?.disabled).toBe(true);
    const name = field('Patient name');
    if (name) name.value = 'Ann';
    form()?.requestSubmit();
    await settle();
    expect(started).toEqual([]);
    mounted.setBusy(false);
    expect(run?.disabled).toBe(false);
  });

  it('stays hidden when the site has no routines', async () => {
    await mountRunAgain(section, offering());
    expect(section.hidden).toBe(true);
    expect(section.children).toHaveLength(0);
  });

  it('stays hidden and logs when the offers cannot be had, and the handle still works', async () => {
    const failure = new Error('Cannot reach the Tandem server');
    const offers = vi.fn(() => Promise.reject(failure));
    const mounted = await mountRunAgain(section, deps(offers));
    expect(offers).toHaveBeenCalledOnce();
    expect(section.hidden).toBe(true);
    expect(logged).toEqual([failure]);
    expect(() => mounted.setBusy(true)).not.toThrow();
  });
});
