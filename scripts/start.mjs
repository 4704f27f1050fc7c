// `npm start`: install, build the server and the extension, serve the demo sites, and run
// Tandem on the embedded libSQL store. No services, no keys needed; the first start prints a
// dev API key. PORT, HOST and DEMO_PORT may be set in the environment.
//
// The server's URL is printed only once /api/health answers: a server whose configuration or
// store is broken prints why and exits non-zero (apps/server/src/instrumentation-node.ts), and
// `npm start` then exits with that code instead of announcing a server that is not there.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { install, pnpm, root } from './pnpm.mjs';

const port = process.env.PORT || '3000';
const host = process.env.HOST || '127.0.0.1';
const demoPort = process.env.DEMO_PORT || '4000';
const serverDir = path.join(root, 'apps', 'server');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once the server answers /api/health with 2xx, false if it exits first. */
async function becameHealthy(url, exited) {
  let done = false;
  exited.then(() => (done = true));
  let warnAt = Date.now() + 60_000;
  while (!done) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    if (Date.now() > warnAt) {
      console.error(`\n  still waiting for ${url}/api/health to answer...`);
      warnAt = Infinity;
    }
    await sleep(250);
  }
  return false;
}

try {
  await install();
  const built = await pnpm([
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@tandem/server',
    '--filter=@tandem/extension',
    '--output-logs=errors-only',
  ]);
  if (built !== 0) throw new Error(`build failed with exit code ${built}`);

  // next itself, not `pnpm exec next`: its exit code and signals reach us unchanged.
  const nextBin = createRequire(path.join(serverDir, 'package.json')).resolve('next/dist/bin/next');
  const server = spawn(process.execPath, [nextBin, 'start', '-p', port, '-H', host], {
    cwd: serverDir,
    stdio: 'inherit',
    env: { ...process.env, PORT: port, DATA_DIR: process.env.DATA_DIR || path.join(root, '.data') },
  });
  const exited = new Promise((resolve) => {
    server.on('error', (error) => {
      console.error(`could not run next start: ${error.message}`);
      resolve(1);
    });
    server.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

  let demo = null;
  let stopping = false;
  const stop = () => {
    stopping = true;
    demo?.kill('SIGTERM');
    server.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const url = `http://${host}:${port}`;
  if (!(await becameHealthy(url, exited))) {
    const code = await exited;
    if (stopping) process.exit(0);
    console.error(
      `\nnpm start failed: the server exited with code ${code} before it answered; ` +
        'the reason is printed above.',
    );
    process.exit(code || 1);
  }

  const extensionDir = path.join(root, 'apps', 'extension', 'dist');
  console.log(
    [
      '',
      '  Tandem',
      `  server      ${url}   (health: /api/health)`,
      `  demo sites  http://127.0.0.1:${demoPort}/`,
      `  extension   load unpacked from ${extensionDir}`,
      '              (chrome://extensions → Developer mode → Load unpacked),',
      '              then open its options and paste the server URL and the API key.',
      '  The API key is printed above on the very first start (only its hash is stored);',
      '  later: npm run cli -- key create --tenant <tenantId>',
      '',
    ].join('\n'),
  );

  demo = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', demoPort], {
    cwd: path.join(root, 'apps', 'demo-sites'),
    stdio: 'inherit',
  });
  const code = await exited;
  demo.kill('SIGTERM');
  if (!stopping && code !== 0) console.error(`\nnpm start: the server exited with code ${code}.`);
  process.exit(stopping ? 0 : code);
} catch (error) {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
