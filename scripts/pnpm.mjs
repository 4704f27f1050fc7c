// Finds the pnpm this repository pins (package.json "packageManager"), so `npm start` and
// `npm test` work on a machine that has only Node and npm: if the right pnpm is not on PATH,
// it is run through npx (downloaded once from the npm registry into npm's cache).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const pinned = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
export const pnpmVersion = pinned.replace(/^pnpm@/, '');

function onPath() {
  const probe = spawnSync('pnpm', ['--version'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  return probe.status === 0 && probe.stdout.trim() === pnpmVersion;
}

const command = onPath() ? ['pnpm'] : ['npx', '--yes', `pnpm@${pnpmVersion}`];

/** Runs pnpm with args; resolves with the exit code. Output goes straight to the terminal. */
export function pnpm(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), ...args], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
      ...options,
      env: { ...process.env, ...options.env },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Installs dependencies exactly as locked (fast no-op when already installed). */
export async function install() {
  const code = await pnpm(['install', '--frozen-lockfile', '--prefer-offline']);
  if (code !== 0) throw new Error(`pnpm install failed with exit code ${code}`);
}

// `node scripts/pnpm.mjs <args>`: what the root package.json scripts run instead of `pnpm`
// (`npm run cli`, `npm run bench:*`), so that they work where only Node and npm are installed.
// On a fresh clone it installs the dependencies first, as `npm start` does.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!existsSync(path.join(root, 'node_modules', '.modules.yaml'))) await install();
    process.exit(await pnpm(process.argv.slice(2), { cwd: process.cwd() }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
