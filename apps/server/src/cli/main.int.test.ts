import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, runCli } from './main';

let store: Store;
let out: string[];
const run = (args: string) => runCli(args.split(' '), store, (line) => out.push(line));

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  out = [];
});
afterEach(async () => {
  await store.close();
});

describe('tandem CLI', () => {
  it('creates a tenant and a key that authenticates; lists and revokes it', async () => {
    await run('tenant create --name Acme --json');
    const tenant = JSON.parse(out.pop() ?? '{}') as { id: string; name: string };
    expect(tenant.name).toBe('Acme');

    await run(`key create --tenant ${tenant.id} --role admin --user alice --json`);
    const created = JSON.parse(out.pop() ?? '{}') as { id: string; key: string; role: string };
    expect(created.role).toBe('admin');
    const record = await store.apiKeys.findByPlaintext(created.key);
    expect(record).toMatchObject({ tenantId: tenant.id, userId: 'alice', role: 'admin' });

    await run(`key list --tenant ${tenant.id}`);
    const listing = out.pop() ?? '';
    expect(listing).toContain(created.id);
    expect(listing).not.toContain(created.key);

    await run(`key revoke --tenant ${tenant.id} --id ${created.id}`);
    expect(await store.apiKeys.findByPlaintext(created.key)).toBeNull();

    await run('tenant list');
    expect(out.pop()).toContain('Acme');
  });

  it('prints the key once in human output', async () => {
    await run('tenant create --name Beta --json');
    const tenant = JSON.parse(out.pop() ?? '{}') as { id: string };
    await run(`key create --tenant ${tenant.id}`);
    const text = out.pop() ?? '';
    const key = /(tdm_\S+)/.exec(text)?.[1];
    expect(key).toBeDefined();
    expect((await store.apiKeys.findByPlaintext(key ?? ''))?.role).toBe('user');
  });

  it('fails with clear messages on bad input', async () => {
    await expect(run('tenant create')).rejects.toThrow(/Missing --name/);
    await expect(run('key create --tenant nope')).rejects.toThrow(/No tenant with id nope/);
    await expect(run('frobnicate now')).rejects.toThrow(CliError);
    await expect(run('tenant list --bogus')).rejects.toThrow(/Unknown option/);
    await run('tenant create --name G --json');
    const tenant = JSON.parse(out.pop() ?? '{}') as { id: string };
    await expect(run(`key create --tenant ${tenant.id} --role root`)).rejects.toThrow(/--role/);
  });
});
