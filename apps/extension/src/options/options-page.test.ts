// @vitest-environment jsdom
/// <reference types="vite/client" />
// The options page as a new user meets it, over its real markup: every button has the page's
// own look (primary for what a form is for, secondary for the rest), the "Always ask before"
// field shows an example of what it takes, and the site fields refuse what is not a site by
// name instead of keeping part of it.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setAskBefore } from '../shared/ask-before';
import { memoryStore } from '../shared/memory-store';
import { saveSecret } from '../shared/secrets';
import { LEARN_SITES_KEY, setSiteLearning } from '../shared/settings';
import { mountAskBefore } from './ask-before-section';
import optionsHtml from './index.html?raw';
import { mountLearnSites } from './learn-sites';
import { mountSecrets } from './secrets-section';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

beforeEach(() => {
  document.body.innerHTML = (/<body>([\s\S]*)<\/body>/.exec(optionsHtml)?.[1] ?? '').replace(
    /<script[\s\S]*?<\/script>/g,
    '',
  );
});

/** The page with one entry in each list, so their Remove buttons are there too. */
async function mountAll() {
  const storage = memoryStore();
  await setSiteLearning(storage, 'app.example.com', true);
  await saveSecret(storage, { name: 'pin', value: '1234', sites: ['bank.example.com'] });
  await setAskBefore(storage, 'archive', true);
  await mountLearnSites(document, storage);
  await mountSecrets(document, storage);
  await mountAskBefore(document, storage);
  return storage;
}

describe('options: buttons', () => {
  it('gives every button one of the two styled looks, the primary one to each form’s action', async () => {
    await mountAll();
    const buttons = [...document.querySelectorAll('button')];
    expect(buttons.length).toBeGreaterThanOrEqual(8);
    for (const button of buttons)
      expect(['primary', 'secondary'], button.textContent ?? '').toContain(button.className);
    for (const form of document.querySelectorAll('form')) {
      const primary = [...form.querySelectorAll('button.primary')];
      expect(primary, form.id).toHaveLength(1);
      expect(primary[0]?.getAttribute('type'), form.id).toBe('submit');
    }
    const removes = buttons.filter((b) => b.textContent === 'Remove');
    expect(removes).toHaveLength(3);
    expect(removes.every((b) => b.className === 'secondary')).toBe(true);
  });

  it('styles both looks in the page itself, the base rule included', () => {
    const css = /<style>([\s\S]*)<\/style>/.exec(optionsHtml)?.[1] ?? '';
    expect(css).toMatch(/\n\s*button \{[^}]*border-radius[^}]*background/);
    expect(css).toMatch(/button\.primary \{[^}]*background: #1f883d/);
  });
});

describe('options: Always ask before', () => {
  it('shows an example of a phrase as its placeholder, not a word that reads as a button', () => {
    const placeholder = $<HTMLInputElement>('ask-phrase').placeholder;
    expect(placeholder).toMatch(/^e\.g\. /);
    const labels = [...document.querySelectorAll('button')].map((b) => b.textContent?.trim());
    expect(labels).not.toContain(placeholder);
    expect(labels).not.toContain(placeholder.replace(/^e\.g\. /, ''));
  });
});

describe('options: site fields', () => {
  const NOT_A_SITE =
    '“not” is not a site: enter a host name such as app.example.com, localhost:3000 or 127.0.0.1.';

  it('"Add a site" refuses a sentence, naming it, and stores nothing', async () => {
    const storage = memoryStore();
    await mountLearnSites(document, storage);
    for (const typed of ['not a site!!', 'not', '*.example.com']) {
      $('learn-message').textContent = '';
      $<HTMLInputElement>('learn-site').value = typed;
      $<HTMLFormElement>('learn-form').requestSubmit();
      await vi.waitFor(() => expect($('learn-message').textContent).not.toBe(''));
      expect($('learn-message').className).toBe('error');
      expect($('learn-message').textContent).toContain(`“${typed}” is not a site`);
      expect($<HTMLInputElement>('learn-site').value).toBe(typed);
    }
    expect(storage.data.has(LEARN_SITES_KEY)).toBe(false);
  });

  it('"Sites it may be typed on" refuses "not a site!!" by its first word, saving nothing', async () => {
    const storage = memoryStore();
    await mountSecrets(document, storage);
    $<HTMLInputElement>('secret-name').value = 'pin';
    $<HTMLInputElement>('secret-value').value = '1234';
    $<HTMLInputElement>('secret-sites').value = 'not a site!!';
    $<HTMLFormElement>('secret-form').requestSubmit();
    await vi.waitFor(() => expect($('secret-message').textContent).toBe(NOT_A_SITE));
    expect($('secret-message').className).toBe('error');
    expect(storage.data.size).toBe(0);
  });
});
