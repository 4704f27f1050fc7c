// The EMR "add patient" flow in real Chromium, as an agent would drive it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { openBrowser, resetState } from './test/browser';
import type { BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites(), openBrowser()]);
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

async function patientsOnServer(): Promise<string[]> {
  const response = await fetch(`${sites.url}${DEMO_API.patients}`);
  const body = (await response.json()) as { patients: { firstName: string; lastName: string }[] };
  return body.patients.map((p) => `${p.firstName} ${p.lastName}`);
}

async function rowNames(): Promise<string[]> {
  return fixture.page.locator('#patient-results tbody tr td:nth-child(2)').allTextContents();
}

describe('EMR', () => {
  it('opens the Patients menu by mouse and keyboard, and closes it with Escape or outside', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.emr}`);
    const button = page.getByRole('button', { name: 'Patients' });
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('menu').count()).toBe(0);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const menu = page.getByRole('menu', { name: 'Patients' });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['New/Search', 'Recent']);
    // The menu-button pattern puts focus on the first item.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New/Search');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Recent');

    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('patients-menu-button');

    await page.keyboard.press('ArrowDown');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('heading', { name: 'Dashboard' }).click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
  });

  it('New/Search shows the search and the labelled "Add new patient" form without a reload', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.emr}`);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    await page.getByRole('button', { name: 'Patients' }).click();
    await page.getByRole('menuitem', { name: 'New/Search' }).click();

    expect(new URL(page.url()).pathname).toBe(DEMO_PAGES.emrNewSearch);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    expect(await page.title()).toBe('New/Search patients · Tandem Health EMR');
    await page.getByRole('heading', { name: 'Add new patient' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search patients' }).waitFor();
    for (const label of ['First name', 'Last name', 'Date of birth', 'Phone']) {
      expect(await page.getByRole('textbox', { name: label }).count(), label).toBe(1);
    }
    expect(await page.getByRole('combobox', { name: 'Sex' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(1);
    await page.locator('#patient-results tbody tr').first().waitFor();
    expect(await rowNames()).toEqual(['Maria Lopez', 'John Smith', 'Aisha Khan']);

    await page.goBack();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  });

  it('shows inline errors for empty names and a bad date, and sends nothing', async () => {
    const { page } = fixture;
    let posts = 0;
    const countPosts = (request: { method(): string }) => {
      if (request.method() === 'POST') posts += 1;
    };
    page.on('request', countPosts);
    await page.goto(`${sites.url}${DEMO_PAGES.emrNewSearch}`);

    await page.getByRole('textbox', { name: 'Date of birth' }).fill('02/30/1990');
    await page.getByRole('button', { name: 'Save' }).click();

    const alerts = await page.getByRole('alert').allTextContents();
    expect(alerts).toEqual([
      'First name is required.',
      'Last name is required.',
      'Enter a valid date of birth as MM/DD/YYYY.',
    ]);
    const firstName = page.getByRole('textbox', { name: 'First name' });
    expect(await firstName.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.getByRole('textbox', { name: 'Last name' }).getAttribute('aria-invalid'),
    ).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('first-name');

    // Typing clears that field's error only.
    await firstName.fill('Jas');
    expect(await firstName.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('alert').count()).toBe(2);

    page.off('request', countPosts);
    expect(posts).toBe(0);
    expect(await patientsOnServer()).toHaveLength(3);
  });

  it('saves a valid patient: "Saving…" first, then the success message and the new row', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.emrNewSearch}`);
    await page.getByRole('textbox', { name: 'First name' }).fill('Jas');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Patel');
    await page.getByRole('textbox', { name: 'Date of birth' }).fill('01/02/1985');
    await page.getByRole('combobox', { name: 'Sex' }).selectOption({ label: 'Male' });
    await page.getByRole('textbox', { name: 'Phone' }).fill('555-0100');

    // Record every visible state change so the order is proven, not sampled.
    await page.evaluate(() => {
      const form = document.getElementById('add-patient-form') as HTMLFormElement;
      const indicator = document.getElementById('saving-indicator') as HTMLElement;
      const status = document.getElementById('save-status') as HTMLElement;
      const timeline: { t: number; saving: boolean; busy: string | null; status: string }[] = [];
      const record = () =>
        timeline.push({
          t: performance.now(),
          saving: !indicator.hidden,
          busy: form.getAttribute('aria-busy'),
          status: status.textContent ?? '',
        });
      new MutationObserver(record).observe(form, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      Object.assign(window, { timeline });
    });

    const clickedAt = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saving…').waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    const success = page.getByRole('status').filter({ hasText: 'saved successfully' });
    await success.waitFor({ timeout: 3_000 });
    expect(await success.textContent()).toBe('Patient Jas Patel saved successfully.');
    expect(await page.getByText('Saving…').isVisible()).toBe(false);
    expect(await page.locator('#add-patient-form').getAttribute('aria-busy')).toBeNull();

    const timeline = (await page.evaluate(
      () => (window as unknown as { timeline: unknown }).timeline,
    )) as {
      t: number;
      saving: boolean;
      busy: string | null;
      status: string;
    }[];
    const firstSaving = timeline.findIndex((s) => s.saving && s.busy === 'true' && s.status === '');
    const firstSuccess = timeline.findIndex((s) => s.status.includes('saved successfully'));
    expect(firstSaving).toBeGreaterThanOrEqual(0);
    expect(firstSuccess).toBeGreaterThan(firstSaving);
    const successState = timeline[firstSuccess];
    expect(successState?.saving).toBe(false);
    expect((successState?.t ?? 0) - clickedAt).toBeGreaterThanOrEqual(600);

    expect(await rowNames()).toContain('Jas Patel');
    expect(await page.getByRole('textbox', { name: 'First name' }).inputValue()).toBe('');
    expect(await patientsOnServer()).toContain('Jas Patel');

    await page.getByRole('button', { name: 'Patients' }).click();
    await page.getByRole('menuitem', { name: 'Recent' }).click();
    await page.getByRole('heading', { name: 'Recent patients' }).waitFor();
    await page.locator('#recent-patients li').first().waitFor();
    expect(await page.locator('#recent-patients li').first().textContent()).toBe(
      'Jas Patel (P-1004) · born 01/02/1985',
    );
  });

  it('searches patients by name', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.emrNewSearch}`);
    await page.locator('#patient-results tbody tr').first().waitFor();
    await page.getByRole('searchbox', { name: 'Search patients' }).fill('khan');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('#patient-results tbody tr').length === 1,
    );
    expect(await rowNames()).toEqual(['Aisha Khan']);

    await page.getByRole('searchbox', { name: 'Search patients' }).fill('nobody');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No patients match your search.').waitFor();
    expect(await rowNames()).toEqual([]);
  });
});
