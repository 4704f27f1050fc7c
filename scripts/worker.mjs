// `npm run worker`: a process that runs Tandem's background jobs (crawls) and serves no HTTP,
// beside `npm start` on the same data directory or store (see apps/server/src/worker.ts and
// docs/architecture.md, "Background jobs"). Needs only Node: dependencies are installed through
// the pinned pnpm as `npm start` does, then the worker runs under tsx in this process's place.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { install, root } from './pnpm.mjs';

const serverDir = path.join(root, 'apps', 'server');

try {
  await install();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
// node itself, not a package manager in between: SIGTERM and SIGINT reach the worker, which
// hands its running jobs back before it exits.
const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
  cwd: serverDir,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR || path.join(root, '.data') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => worker.kill(signal));
worker.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
