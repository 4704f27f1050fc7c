// `npm start`: install, build the server and the extension, serve the demo sites, and run
// Tandem on the embedded libSQL store. No services, no keys needed; the first start prints a
// dev API key. PORT, HOST and DEMO_PORT may be set in the environment.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { install, pnpm, root } from './pnpm.mjs';

const port = process.env.PORT || '3000';
const host = process.env.HOST || '127.0.0.1';
const demoPort = process.env.DEMO_PORT || '4000';

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

  const extensionDir = path.join(root, 'apps', 'extension', 'dist');
  console.log(
    [
      '',
      '  Tandem',
      `  server      http://${host}:${port}   (health: /api/health)`,
      `  demo sites  http://127.0.0.1:${demoPort}/`,
      `  extension   load unpacked from ${extensionDir}`,
      '              (chrome://extensions → Developer mode → Load unpacked),',
      '              then open its options and paste the server URL and the API key.',
      '  The API key is printed below on the very first start (only its hash is stored);',
      '  later: npm run cli -- key create --tenant <tenantId>',
      '',
    ].join('\n'),
  );

  const demo = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', demoPort], {
    cwd: path.join(root, 'apps', 'demo-sites'),
    stdio: 'inherit',
  });
  const stop = () => demo.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const code = await pnpm(
    ['--filter', '@tandem/server', 'exec', 'next', 'start', '-p', port, '-H', host],
    {
      env: { PORT: port, DATA_DIR: process.env.DATA_DIR || path.join(root, '.data') },
    },
  );
  stop();
  process.exit(code);
} catch (error) {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
