// Tandem admin CLI: tenants and API keys on the configured store (libSQL under DATA_DIR, or
// MongoDB when MONGODB_URI is set). Run from the repository root: `npm run cli -- <command>`.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiKeyRole } from '@tandem/contracts';
import { createStore, type Store } from '@tandem/store';
import { env } from '../env';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  tenant create --name <name>                 Create a tenant; prints its id.
  tenant list                                 List tenants.
  key create --tenant <id> [--user <userId>] [--name <label>] [--role user|admin]
                                              Create an API key; prints it once.
  key list --tenant <id>                      List a tenant's keys (prefixes only).
  key revoke --tenant <id> --id <keyId>       Revoke a key.

Options:
  --json                                      Machine-readable output.
`;

export class CliError extends Error {
  override readonly name = 'CliError';
}

type Out = (line: string) => void;

function required(value: string | undefined, flag: string): string {
  if (!value || value.trim() === '') throw new CliError(`Missing --${flag}.\n\n${USAGE}`);
  return value.trim();
}

const OPTIONS = {
  name: { type: 'string' },
  tenant: { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  id: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parseArgsOrFail(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

/** Runs one CLI command against a store. Exported for tests. */
export async function runCli(argv: string[], store: Store, out: Out): Promise<void> {
  const { values, positionals } = parseArgsOrFail(argv);
  const [noun, verb] = positionals;
  const print = (human: string, data: unknown) => out(values.json ? JSON.stringify(data) : human);
  if (values.help || !noun) {
    out(USAGE);
    return;
  }
  const tenantOrFail = async () => {
    const tenantId = required(values.tenant, 'tenant');
    const tenant = await store.tenants.get(tenantId);
    if (!tenant)
      throw new CliError(`No tenant with id ${tenantId} (see: npm run cli -- tenant list).`);
    return tenant;
  };

  switch (`${noun} ${verb ?? ''}`.trim()) {
    case 'tenant create': {
      const tenant = await store.tenants.create({ name: required(values.name, 'name') });
      print(`Created tenant "${tenant.name}" with id ${tenant.id}`, tenant);
      return;
    }
    case 'tenant list': {
      const tenants = await store.tenants.list();
      print(
        tenants.length === 0
          ? 'No tenants yet.'
          : tenants.map((t) => `${t.id}  ${t.name}  (created ${t.createdAt})`).join('\n'),
        tenants,
      );
      return;
    }
    case 'key create': {
      const tenant = await tenantOrFail();
      const role = ApiKeyRole.safeParse(values.role ?? 'user');
      if (!role.success) throw new CliError(`--role must be "user" or "admin".`);
      const { record, plaintextKey } = await store.apiKeys.create(tenant.id, {
        userId: values.user?.trim() || 'default-user',
        name: values.name?.trim() || 'cli key',
        role: role.data,
      });
      print(
        [
          `Created ${record.role} key ${record.id} for tenant "${tenant.name}" (user ${record.userId}).`,
          'It is shown only this once; only a hash is stored:',
          '',
          `  ${plaintextKey}`,
        ].join('\n'),
        { ...record, key: plaintextKey },
      );
      return;
    }
    case 'key list': {
      const tenant = await tenantOrFail();
      const keys = await store.apiKeys.list(tenant.id);
      print(
        keys.length === 0
          ? 'No keys.'
          : keys
              .map(
                (k) =>
                  `${k.id}  ${k.prefix}…  ${k.role}  user=${k.userId}  ${k.name}` +
                  (k.revokedAt ? `  (revoked ${k.revokedAt})` : ''),
              )
              .join('\n'),
        keys,
      );
      return;
    }
    case 'key revoke': {
      const tenant = await tenantOrFail();
      const id = required(values.id, 'id');
      const revoked = await store.apiKeys.revoke(tenant.id, id);
      if (!revoked) throw new CliError(`No active key ${id} in tenant ${tenant.id}.`);
      print(`Revoked key ${id}.`, { id, revoked });
      return;
    }
    default:
      throw new CliError(`Unknown command "${positionals.join(' ')}".\n\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const config = env();
  const store = await createStore({ mongodbUri: config.MONGODB_URI, dataDir: config.DATA_DIR });
  try {
    await runCli(process.argv.slice(2), store, (line) => console.log(line));
  } finally {
    await store.close();
  }
}

// Only when executed as a script (tests import runCli).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof CliError ? error.message : error);
    process.exitCode = 1;
  });
}
