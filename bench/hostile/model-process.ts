// The scripted model in a process of its own, as bench/soak runs its model: its fake embeddings
// are real CPU work (6,667 vectors for a 10 MB text), and in the suite's own process they held
// the event loop that times /api/health and tenant B, so the suite measured itself.
import { fork } from 'node:child_process';
import { startHostileModel, type ModelHandle } from './model';

type Message = { url: string } | { delayed: number };

/** Starts the model in a child process; the handle talks to it over IPC. */
export async function startModelProcess(): Promise<ModelHandle> {
  const child = fork(import.meta.filename, [], {
    // Resolved from this package: a bare `tsx` would be looked up from the caller's working
    // directory, and the e2e package (which runs this in CI) does not depend on tsx.
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the scripted model exited with ${code}`)));
  });
  return {
    url,
    setDocumentDelay: (ms) =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send({ delay: ms });
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.send && import.meta.filename === process.argv[1]) {
  const model = await startHostileModel();
  const send = (message: Message) => process.send?.(message);
  send({ url: model.url });
  process.on('message', (message: { delay?: number }) => {
    if (typeof message.delay === 'number') {
      model.setDocumentDelay(message.delay);
      send({ delayed: message.delay });
    }
  });
  process.on('SIGTERM', () => void model.close().then(() => process.exit(0)));
}
