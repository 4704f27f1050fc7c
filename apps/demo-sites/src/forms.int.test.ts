// The plain form (target of a 5-field chain fill) and the custom dropdown, in real Chromium.
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

describe('form', () => {
  it('submits every field type and shows the values back as the server stored them', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.form}`);
    await page.getByRole('textbox', { name: 'Full name' }).fill('Jas Patel');
    await page.getByRole('textbox', { name: 'Email' }).fill('jas@example.com');
    await page
      .getByRole('combobox', { name: 'Reason for visit' })
      .selectOption({ label: 'Follow-up' });
    await page.getByRole('radio', { name: 'Phone' }).check();
    await page.getByRole('textbox', { name: 'Notes' }).fill('Mornings are best.');
    await page.getByRole('checkbox', { name: 'Send me appointment reminders' }).check();
    await page.getByRole('button', { name: 'Submit request' }).click();

    await page.getByRole('heading', { name: 'Request submitted' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe(
      'Thanks, Jas Patel. We received your request.',
    );
    const shown = await page
      .locator('#submitted-values dd')
      .evaluateAll((cells) =>
        Object.fromEntries(
          cells.map((cell) => [(cell as HTMLElement).dataset.field, cell.textContent]),
        ),
      );
    expect(shown).toEqual({
      fullName: 'Jas Patel',
      email: 'jas@example.com',
      reason: 'Follow-up',
      contactMethod: 'Phone',
      notes: 'Mornings are best.',
      reminders: 'Yes',
    });

    const stored = await (await fetch(`${sites.url}${DEMO_API.formSubmissions}`)).json();
    expect(stored).toEqual({
      submissions: [
        {
          sequence: 1,
          values: {
            fullName: 'Jas Patel',
            email: 'jas@example.com',
            reason: 'follow-up',
            contactMethod: 'phone',
            notes: 'Mornings are best.',
            reminders: true,
          },
        },
      ],
    });
  });

  it('lets the browser block a submit with the required fields empty', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.form}`);
    await page.getByRole('button', { name: 'Submit request' }).click();
    expect(await page.getByRole('heading', { name: 'Request submitted' }).isVisible()).toBe(false);
    expect(
      await page
        .getByRole('textbox', { name: 'Full name' })
        .evaluate((input) => (input as HTMLInputElement).validity.valueMissing),
    ).toBe(true);
    const stored = (await (await fetch(`${sites.url}${DEMO_API.formSubmissions}`)).json()) as {
      submissions: unknown[];
    };
    expect(stored.submissions).toEqual([]);
  });
});

describe('custom dropdown', () => {
  const state = () =>
    fixture.page.evaluate(() => ({
      expanded: (document.getElementById('department-combobox') as HTMLElement).getAttribute(
        'aria-expanded',
      ),
      listboxVisible: !(document.getElementById('department-listbox') as HTMLElement).hidden,
      active: (document.getElementById('department-combobox') as HTMLElement).getAttribute(
        'aria-activedescendant',
      ),
      value: (document.getElementById('department-value') as HTMLElement).textContent,
      choice: (document.getElementById('department-choice') as HTMLElement).textContent,
      selected: [...document.querySelectorAll('[role="option"][aria-selected="true"]')].map(
        (option) => option.textContent,
      ),
    }));

  it('is a real combobox: no native select, labelled, collapsed at first', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.dropdown}`);
    expect(await page.locator('select').count()).toBe(0);
    const combobox = page.getByRole('combobox', { name: 'Department' });
    expect(await combobox.evaluate((node) => node.tagName)).toBe('BUTTON');
    expect(await state()).toMatchObject({ expanded: 'false', listboxVisible: false, selected: [] });
    expect(await page.getByRole('option').count()).toBe(0);
  });

  it('selects with the mouse', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.dropdown}`);
    await page.getByRole('combobox', { name: 'Department' }).click();
    expect(await state()).toMatchObject({ expanded: 'true', listboxVisible: true });
    expect(
      await page.getByRole('listbox', { name: 'Department' }).getByRole('option').allTextContents(),
    ).toEqual(['Cardiology', 'Dermatology', 'Neurology', 'Orthopedics', 'Pediatrics']);
    await page.getByRole('option', { name: 'Neurology' }).click();
    expect(await state()).toMatchObject({
      expanded: 'false',
      listboxVisible: false,
      value: 'Neurology',
      choice: 'Selected department: Neurology',
      selected: ['Neurology'],
    });

    // A click outside closes without changing the choice.
    await page.getByRole('combobox', { name: 'Department' }).click();
    await page.getByRole('heading', { name: 'Book a visit' }).click();
    expect(await state()).toMatchObject({ expanded: 'false', value: 'Neurology' });
  });

  it('selects with ArrowDown/Enter, Space and typeahead, and Escape cancels', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.dropdown}`);
    await page.getByRole('combobox', { name: 'Department' }).focus();

    await page.keyboard.press('ArrowDown');
    expect(await state()).toMatchObject({ expanded: 'true', active: 'department-cardiology' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect((await state()).active).toBe('department-neurology');
    await page.keyboard.press('Enter');
    expect(await state()).toMatchObject({
      expanded: 'false',
      value: 'Neurology',
      choice: 'Selected department: Neurology',
    });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('department-combobox');

    // Reopening starts on the current choice; Escape leaves it unchanged.
    await page.keyboard.press('Enter');
    expect(await state()).toMatchObject({ expanded: 'true', active: 'department-neurology' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    expect(await state()).toMatchObject({ expanded: 'false', value: 'Neurology' });

    await page.keyboard.press('Space');
    expect((await state()).expanded).toBe('true');
    await page.keyboard.press('p');
    expect((await state()).active).toBe('department-pediatrics');
    await page.keyboard.press('Space');
    expect(await state()).toMatchObject({
      expanded: 'false',
      value: 'Pediatrics',
      selected: ['Pediatrics'],
    });
  });
});
