// @vitest-environment jsdom
/// <reference types="vite/client" />
// The options page's "Secrets" and "Always ask before" in jsdom, over the real page's markup:
// a secret is saved to local storage and listed by name and sites, never by value.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadAskBefore } from '../shared/ask-before';
import { memoryStore } from '../shared/memory-store';
import { loadSecrets } from '../shared/secrets';
import { mountAskBefore } from './ask-before-section';
import optionsHtml from './index.html?raw';
import { mountSecrets } from './secrets-section';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const rows = (id: string) =>
  [...document.querySelectorAll(`#${id} li`)].map((li) => li.textContent);

beforeEach(() => {
  document.body.innerHTML = (/<body>([\s\S]*)<\/body>/.exec(optionsHtml)?.[1] ?? '').replace(
    /<script[\s\S]*?<\/script>/g,
    '',
  );
});

async function submit(form: string, message: string) {
  $(message).textContent = '';
  $<HTMLFormElement>(form).requestSubmit();
  await vi.waitFor(() => expect($(message).textContent).not.toBe(''));
}

describe('options: Secrets', () => {
  it('saves a secret and lists it as its placeholder and sites; the value is shown nowhere', async () => {
    const storage = memoryStore();
    await mountSecrets(document, storage);
    expect($('secrets-empty').hidden).toBe(false);
    $<HTMLInputElement>('secret-name').value = 'clinic_password';
    $<HTMLInputElement>('secret-value').value = 'S3cr3t-Clinic-9431';
    $<HTMLInputElement>('secret-sites').value = 'http://127.0.0.1:4000/inject/login.html';
    await submit('secret-form', 'secret-message');
    expect($('secret-message').textContent).toBe(
      'Saved: the agent can type {{secret:clinic_password}} on 127.0.0.1:4000.',
    );
    expect(rows('secret-list')).toEqual(['{{secret:clinic_password}} on 127.0.0.1:4000Remove']);
    expect(document.body.innerHTML).not.toContain('S3cr3t');
    expect(await loadSecrets(storage)).toEqual([
      { name: 'clinic_password', value: 'S3cr3t-Clinic-9431', sites: ['127.0.0.1:4000'] },
    ]);
    document.querySelector<HTMLButtonElement>('[aria-label="Remove clinic_password"]')?.click();
    await vi.waitFor(async () => expect(await loadSecrets(storage)).toEqual([]));
  });

  it('says what is wrong with a name, a site or a value', async () => {
    await mountSecrets(document, memoryStore());
    $<HTMLInputElement>('secret-name').value = 'Clinic Password';
    await submit('secret-form', 'secret-message');
    expect($('secret-message').textContent).toMatch(/^A name is lower-case letters/);
    $<HTMLInputElement>('secret-name').value = 'pin';
    await submit('secret-form', 'secret-message');
    expect($('secret-message').textContent).toBe(
      'Add the site (or sites) the secret may be typed on.',
    );
    $<HTMLInputElement>('secret-sites').value = 'bank.example';
    $<HTMLInputElement>('secret-value').value = '12';
    await submit('secret-form', 'secret-message');
    expect($('secret-message').textContent).toBe('A secret has at least 4 characters.');
  });
});

describe('options: Always ask before', () => {
  it('adds and removes the user’s words', async () => {
    const storage = memoryStore();
    await mountAskBefore(document, storage);
    $<HTMLInputElement>('ask-phrase').value = 'Save';
    await submit('ask-form', 'ask-message');
    expect(await loadAskBefore(storage)).toEqual(['Save']);
    expect(rows('ask-list')).toEqual(['SaveRemove']);
    document.querySelector<HTMLButtonElement>('[aria-label="Remove Save"]')?.click();
    await vi.waitFor(async () => expect(await loadAskBefore(storage)).toEqual([]));
  });
});
