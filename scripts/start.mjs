// `npm start`: install, build, and run Tandem on the embedded libSQL store. No services, no
// keys needed; the first start prints a dev API key. PORT and HOST may be set in the env.
import path from 'node:path';
import { install, pnpm, root } from './pnpm.mjs';

const port = process.env.PORT || '3000';
const host = process.env.HOST || '127.0.0.1';

try {
  await install();
  const built = await pnpm([
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@tandem/server',
    '--output-logs=errors-only',
  ]);
  if (built !== 0) throw new Error(`build failed with exit code ${built}`);
  console.log(
    `\nStarting Tandem on http://${host}:${port} (health: http://${host}:${port}/api/health)\n`,
  );
  const code = await pnpm(
    ['--filter', '@tandem/server', 'exec', 'next', 'start', '-p', port, '-H', host],
    {
      env: { PORT: port, DATA_DIR: process.env.DATA_DIR || path.join(root, '.data') },
    },
  );
  process.exit(code);
} catch (error) {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
