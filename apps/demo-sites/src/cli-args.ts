import { parseArgs } from 'node:util';

export interface CliOptions {
  readonly port: number;
  readonly host: string;
  readonly help: boolean;
}

export const USAGE = `Usage: npm run demo-sites [-- --port 4000] [--host 127.0.0.1]

Serves the Tandem demo sites (EMR, form, modal, iframe, shadow DOM, re-rendering list,
custom dropdown) on loopback.`;

/** Parses CLI flags; throws with a readable message on anything it does not understand. */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  // `pnpm start -- --port 1` forwards the separator itself on some pnpm versions.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', short: 'p', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  if (!values.host.trim()) throw new Error('--host must not be empty');
  return { port, host: values.host, help: values.help };
}
