import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import {
  fillSecrets,
  loadSecrets,
  redactingApi,
  redactSecrets,
  removeSecret,
  saveSecret,
  secretRefs,
  type StoredSecret,
} from './secrets';

const clinic: StoredSecret = {
  name: 'clinic_password',
  value: 'S3cr3t-"Clinic"\\9431',
  sites: ['127.0.0.1:4000'],
};
const pin: StoredSecret = { name: 'pin', value: '9431', sites: ['bank.example'] };

describe('stored secrets', () => {
  it('are kept by name in local storage and shared with the server as names and sites only', async () => {
    const storage = memoryStore();
    await saveSecret(storage, pin);
    await saveSecret(storage, clinic);
    await saveSecret(storage, { ...pin, value: '1234' });
    expect((await loadSecrets(storage)).map((s) => [s.name, s.value])).toEqual([
      ['clinic_password', clinic.value],
      ['pin', '1234'],
    ]);
    expect(secretRefs(await loadSecrets(storage))).toEqual([
      { name: 'clinic_password', sites: ['127.0.0.1:4000'] },
      { name: 'pin', sites: ['bank.example'] },
    ]);
    expect(await removeSecret(storage, 'pin')).toHaveLength(1);
    await expect(saveSecret(storage, { ...pin, value: '12' })).rejects.toThrow(/at least 4/);
    await expect(saveSecret(storage, { ...pin, sites: [] })).rejects.toThrow(/site/);
  });
});

describe('filling a secret at execution time', () => {
  it('fills the value, escaped, on its own site, with the sites the page checks again', () => {
    const filled = fillSecrets(
      'setValue("7", "{{secret:clinic_password}}")',
      [clinic],
      'http://127.0.0.1:4000/inject/login.html',
    );
    expect(filled).toEqual({
      ok: true,
      action: `setValue("7", ${JSON.stringify(clinic.value)})`,
      typeOnlyOn: ['127.0.0.1:4000'],
    });
  });

  it('refuses another site, an unknown name and anything but a field', () => {
    expect(
      fillSecrets(
        'setValue("7", "{{secret:clinic_password}}")',
        [clinic],
        'http://localhost:4000/',
      ),
    ).toEqual({
      ok: false,
      error:
        '{{secret:clinic_password}} may only be typed on 127.0.0.1:4000, not on localhost:4000',
    });
    expect(
      fillSecrets('setValue("7", "{{secret:nope}}")', [clinic], 'http://127.0.0.1:4000/'),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no secret named/),
    });
    expect(
      fillSecrets(
        'navigate("http://127.0.0.1:4000/?p={{secret:clinic_password}}")',
        [clinic],
        'http://127.0.0.1:4000/',
      ),
    ).toMatchObject({ ok: false, error: 'a secret may only be typed into a field' });
    expect(fillSecrets('click("3")', [clinic], 'http://x.example/')).toEqual({
      ok: true,
      action: 'click("3")',
    });
  });
});

describe('redaction', () => {
  it('replaces every value, deeply, longest first', () => {
    const body = {
      interactiveTree: [{ i: '1', r: 'inp', n: 'Comment', v: `pw ${clinic.value} pin 9431` }],
      lastActionError: `the field shows "${clinic.value}"`,
      n: 3,
    };
    expect(redactSecrets(body, [pin, clinic])).toEqual({
      interactiveTree: [
        { i: '1', r: 'inp', n: 'Comment', v: 'pw {{secret:clinic_password}} pin {{secret:pin}}' },
      ],
      lastActionError: 'the field shows "{{secret:clinic_password}}"',
      n: 3,
    });
  });

  it('the API client redacts what it sends to the server', async () => {
    const sent: unknown[] = [];
    const api = redactingApi(
      {
        interact: async (body) => {
          sent.push(body);
          return {} as never;
        },
        pageContent: async (body) => {
          sent.push(body);
          return {} as never;
        },
      },
      async () => [clinic],
    );
    await api.interact({ url: 'http://127.0.0.1:4000/', query: `type ${clinic.value}` });
    await api.pageContent({
      url: 'http://127.0.0.1:4000/',
      phase: 'initial',
      content: `<p>${clinic.value}</p>`,
      contentType: 'html',
    } as never);
    expect(JSON.stringify(sent)).not.toContain('9431');
    expect(JSON.stringify(sent)).toContain('{{secret:clinic_password}}');
  });
});
