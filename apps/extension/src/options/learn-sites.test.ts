// @vitest-environment jsdom
/// <reference types="vite/client" />
// The consent UIs in jsdom, over the real pages' markup: the options page's "Learn from pages"
// list (add, refuse what is not a site, remove) and the popup's toggle for the tab's site.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../shared/memory-store';
import { LEARN_SITES_KEY, loadLearnSites, setSiteLearning } from '../shared/settings';
import { learnStateText, mountLearnToggle } from '../popup/learn-toggle';
import popupHtml from '../popup/index.html?raw';
import { mountLearnSites } from './learn-sites';
import optionsHtml from './index.html?raw';

/** The body of one of the extension's pages, scripts left out. */
function pageBody(page: 'options' | 'popup'): string {
  const html = page === 'options' ? optionsHtml : popupHtml;
  return (/<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '').replace(
    /<script[\s\S]*?<\/script>/g,
    '',
  );
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const listed = () => [...document.querySelectorAll('#learn-sites code')].map((c) => c.textContent);

describe('options: Learn from pages', () => {
  beforeEach(() => {
    document.body.innerHTML = pageBody('options');
  });

  async function addSite(storage: ReturnType<typeof memoryStore>, text: string) {
    $<HTMLInputElement>('learn-site').value = text;
    $<HTMLFormElement>('learn-form').requestSubmit();
    await vi.waitFor(async () => expect($('learn-message').textContent).not.toBe(''));
    return loadLearnSites(storage);
  }

  it('starts empty, says so, and adds a site typed as a URL by its host', async () => {
    const storage = memoryStore();
    await mountLearnSites(document, storage);
    expect($('learn-empty').hidden).toBe(false);
    expect($('learn-sites').hidden).toBe(true);
    expect(await addSite(storage, 'https://App.Example.com/patients?id=3')).toEqual([
      'app.example.com',
    ]);
    expect(listed()).toEqual(['app.example.com']);
    expect($('learn-empty').hidden).toBe(true);
    expect($('learn-message').textContent).toBe('Tandem may learn from app.example.com.');
    expect($<HTMLInputElement>('learn-site').value).toBe('');
  });

  it('refuses what is not a site and stores nothing', async () => {
    const storage = memoryStore();
    await mountLearnSites(document, storage);
    expect(await addSite(storage, 'chrome://settings')).toEqual([]);
    expect($('learn-message').className).toBe('error');
    expect(storage.data.has(LEARN_SITES_KEY)).toBe(false);
  });

  it('removes a site with its button', async () => {
    const storage = memoryStore();
    await setSiteLearning(storage, 'a.example', true);
    await setSiteLearning(storage, 'b.example', true);
    await mountLearnSites(document, storage);
    expect(listed()).toEqual(['a.example', 'b.example']);
    document.querySelector<HTMLButtonElement>('button[aria-label="Remove a.example"]')?.click();
    await vi.waitFor(() => expect(listed()).toEqual(['b.example']));
    expect(await loadLearnSites(storage)).toEqual(['b.example']);
    expect($('learn-message').textContent).toBe('Tandem no longer learns from a.example.');
  });
});

describe('popup: Let Tandem learn from this site', () => {
  beforeEach(() => {
    document.body.innerHTML = pageBody('popup');
  });

  it("shows the tab's site off by default, and one click allows it", async () => {
    const storage = memoryStore();
    await mountLearnToggle(document, storage, 'https://app.example.com/x');
    const toggle = $<HTMLInputElement>('learn-toggle');
    expect($('learn').hidden).toBe(false);
    expect(toggle.checked).toBe(false);
    expect($('learn-state').textContent).toBe(learnStateText('app.example.com', false));
    toggle.click();
    await vi.waitFor(async () =>
      expect(await loadLearnSites(storage)).toEqual(['app.example.com']),
    );
    await vi.waitFor(() =>
      expect($('learn-state').textContent).toBe(learnStateText('app.example.com', true)),
    );
    toggle.click();
    await vi.waitFor(async () => expect(await loadLearnSites(storage)).toEqual([]));
  });

  it('shows the state stored for the site, and no toggle on a page that is not a website', async () => {
    const storage = memoryStore();
    await setSiteLearning(storage, 'app.example.com', true);
    await mountLearnToggle(document, storage, 'https://app.example.com/');
    expect($<HTMLInputElement>('learn-toggle').checked).toBe(true);
    expect(learnStateText('app.example.com', true)).toMatch(/tenant's knowledge.*hidden content/);

    document.body.innerHTML = pageBody('popup');
    await mountLearnToggle(document, storage, 'chrome://extensions/');
    expect($('learn').hidden).toBe(true);
  });
});
