// The site variants in real Chromium: switched on over the demo API between page loads (no
// restart), each changes exactly one thing of the EMR's "Add new patient" form and the
// appointment request form, and a reset puts the plain sites back.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { openBrowser, resetState } from './test/browser';
import type { BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites({ saveDelayMs: 50 }), openBrowser()]);
});
afterAll(async () => {
  await fixture?.browser.close();
  await sites?.close();
});
beforeEach(async () => {
  await resetState(sites.url);
  fixture.problems.length = 0;
});
afterEach(() => {
  expect(fixture.problems).toEqual([]);
});

async function setVariant(name: string | null): Promise<Response> {
  return fetch(`${sites.url}${DEMO_API.variant}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
}

async function json<T>(path: string): Promise<T> {
  return (await (await fetch(`${sites.url}${path}`)).json()) as T;
}

const patientNames = async () =>
  (
    await json<{ patients: { firstName: string; lastName: string }[] }>(DEMO_API.patients)
  ).patients.map((p) => `${p.firstName} ${p.lastName}`);

async function openAddPatient(): Promise<Page> {
  const { page } = fixture;
  await page.goto(`${sites.url}${DEMO_PAGES.emrNewSearch}`);
  await page.getByRole('heading', { name: 'Add new patient' }).waitFor();
  await fixture.settle();
  return page;
}

async function fillPatient(page: Page, first: string, last: string) {
  await page.getByRole('textbox', { name: 'First name' }).fill(first);
  await page.getByRole('textbox', { name: 'Last name' }).fill(last);
}

/** The ids of the add-patient form's fields and buttons, in DOM order. */
const addFormOrder = (page: Page) =>
  page
    .locator('#add-patient-form')
    .locator('input, select, button')
    .evaluateAll((nodes) => nodes.map((n) => n.id || n.textContent?.trim() || ''));

async function openRequestForm(): Promise<Page> {
  const { page } = fixture;
  await page.goto(`${sites.url}${DEMO_PAGES.form}`);
  await page.getByRole('heading', { name: 'Request an appointment' }).waitFor();
  await fixture.settle();
  return page;
}

async function fillRequest(page: Page, name: string, email: string) {
  await page.getByRole('textbox', { name: 'Full name' }).fill(name);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
}

const submissions = async () =>
  (await json<{ submissions: { values: Record<string, unknown> }[] }>(DEMO_API.formSubmissions))
    .submissions;

describe('the variant switch', () => {
  it('is off by default, set and read over the API, and cleared by a reset', async () => {
    expect(await json(DEMO_API.variant)).toEqual({ variant: null });
    const plain = await (await fetch(`${sites.url}${DEMO_PAGES.form}`)).text();
    expect(plain).not.toContain('data-demo-variant');

    const set = await setVariant('rename-submit');
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ variant: 'rename-submit' });
    expect(await json(DEMO_API.variant)).toEqual({ variant: 'rename-submit' });
    const marked = await (await fetch(`${sites.url}${DEMO_PAGES.form}`)).text();
    expect(marked).toContain('<html data-demo-variant="rename-submit"');

    await resetState(sites.url);
    expect(await json(DEMO_API.variant)).toEqual({ variant: null });
    expect(await (await fetch(`${sites.url}${DEMO_PAGES.form}`)).text()).toBe(plain);
  });

  it('refuses an unknown variant and keeps the current one', async () => {
    await setVariant('extra-field');
    const refused = await setVariant('everything');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'VALIDATION_FAILED',
    );
    expect(await json(DEMO_API.variant)).toEqual({ variant: 'extra-field' });
  });

  it('switches between page loads without a restart', async () => {
    await setVariant('rename-submit');
    let page = await openAddPatient();
    await page.getByRole('button', { name: 'Save patient', exact: true }).waitFor();
    await setVariant(null);
    page = await openAddPatient();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Save patient' }).count()).toBe(0);
  });
});

describe('EMR "Add new patient" variants', () => {
  it('rename-submit: the button reads "Save patient" and still saves', async () => {
    await setVariant('rename-submit');
    const page = await openAddPatient();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await fillPatient(page, 'Ola', 'Berg');
    await page.getByRole('button', { name: 'Save patient' }).click();
    await page.getByText('Patient Ola Berg saved successfully.').waitFor();
    expect(await patientNames()).toContain('Ola Berg');
  });

  it('extra-field: an optional "Middle name" after "Last name"; saving without it works', async () => {
    await setVariant('extra-field');
    const page = await openAddPatient();
    const order = await addFormOrder(page);
    expect(order.slice(0, 3)).toEqual(['first-name', 'last-name', 'middle-name']);
    await page.getByRole('textbox', { name: 'Middle name (optional)' }).waitFor();
    await fillPatient(page, 'Uma', 'Rao');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Patient Uma Rao saved successfully.').waitFor();
    expect(await patientNames()).toContain('Uma Rao');
  });

  it('move-submit: Save comes before the fields and still submits the form', async () => {
    await setVariant('move-submit');
    const page = await openAddPatient();
    const order = await addFormOrder(page);
    expect(order[0]).toBe('save-patient');
    expect(order.indexOf('save-patient')).toBeLessThan(order.indexOf('first-name'));
    await fillPatient(page, 'Ivo', 'Marx');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Patient Ivo Marx saved successfully.').waitFor();
    expect(await patientNames()).toContain('Ivo Marx');
  });

  it('confirm-dialog: Save asks "Are you sure?"; Cancel saves nothing, Confirm saves', async () => {
    await setVariant('confirm-dialog');
    const page = await openAddPatient();
    await fillPatient(page, 'Zoe', 'Hart');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    await fixture.settle();
    expect(await patientNames()).not.toContain('Zoe Hart');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Patient Zoe Hart saved successfully.').waitFor();
    expect(await patientNames()).toContain('Zoe Hart');
  });

  it('staff-form: /emr/staff/new has the same labels and Save, and adds staff, not a patient', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.emrStaffNew}`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();

    await setVariant('staff-form');
    await page.goto(`${sites.url}${DEMO_PAGES.emrStaffNew}`);
    await page.getByRole('heading', { name: 'Add new staff member' }).waitFor();
    for (const label of ['First name', 'Last name', 'Date of birth', 'Phone'])
      expect(await page.getByRole('textbox', { name: label }).count(), label).toBe(1);
    await fillPatient(page, 'Kim', 'Ode');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Staff member Kim Ode saved successfully.').waitFor();
    const { staff } = await json<{ staff: { id: string; firstName: string }[] }>(DEMO_API.staff);
    expect(staff.map((s) => `${s.id} ${s.firstName}`)).toEqual(['S-2001 Kim']);
    expect(await patientNames()).not.toContain('Kim Ode');
    // The patients page is untouched by this variant.
    await openAddPatient();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  });
});

describe('appointment request variants', () => {
  it('rename-submit: the button reads "Request appointment" and still submits', async () => {
    await setVariant('rename-submit');
    const page = await openRequestForm();
    expect(await page.getByRole('button', { name: 'Submit request' }).count()).toBe(0);
    await fillRequest(page, 'Ben Ruiz', 'ben@example.com');
    await page.getByRole('button', { name: 'Request appointment' }).click();
    await page.getByText('Thanks, Ben Ruiz. We received your request.').waitFor();
    expect((await submissions()).map((s) => s.values.fullName)).toEqual(['Ben Ruiz']);
  });

  it('extra-field: an optional "Preferred date" after "Email", sent when filled', async () => {
    await setVariant('extra-field');
    const page = await openRequestForm();
    const ids = await page
      .locator('#appointment-form input[id], #appointment-form select')
      .evaluateAll((nodes) => nodes.map((n) => n.id));
    expect(ids.slice(0, 4)).toEqual(['full-name', 'email', 'preferred-date', 'reason']);
    await fillRequest(page, 'Ada Moss', 'ada@example.com');
    await page.getByRole('textbox', { name: 'Preferred date (optional)' }).fill('next Monday');
    await page.getByRole('button', { name: 'Submit request' }).click();
    await page.getByText('We received your request.').waitFor();
    expect((await submissions())[0]?.values).toMatchObject({
      fullName: 'Ada Moss',
      preferredDate: 'next Monday',
    });
  });

  it('move-submit: the button comes right after the heading, before every field', async () => {
    await setVariant('move-submit');
    const page = await openRequestForm();
    const first = await page
      .locator('#appointment-form')
      .locator('input, select, textarea, button')
      .first()
      .textContent();
    expect(first?.trim()).toBe('Submit request');
    await fillRequest(page, 'Eli Park', 'eli@example.com');
    await page.getByRole('button', { name: 'Submit request' }).click();
    await page.getByText('Thanks, Eli Park. We received your request.').waitFor();
    expect(await submissions()).toHaveLength(1);
  });

  it('confirm-dialog: nothing is sent until Confirm', async () => {
    await setVariant('confirm-dialog');
    const page = await openRequestForm();
    await fillRequest(page, 'Gus Lamb', 'gus@example.com');
    await page.getByRole('button', { name: 'Submit request' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await fixture.settle();
    expect(await submissions()).toHaveLength(0);
    await page.getByRole('button', { name: 'Submit request' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Thanks, Gus Lamb. We received your request.').waitFor();
    expect(await submissions()).toHaveLength(1);
  });
});
