// A scripted model in a process of its own (bench:soak, bench:hostile): answering it, and its
// fake embeddings' real CPU work (6,667 vectors for a 10 MB text), must not hold the event loop
// of the process that times the server. In the suite's own process they did, and the suite
// measured itself.
import { fork, type Serializable } from 'node:child_process';

export interface ModelProcess {
  url: string;
  /** Sends `message` to the model's process and settles with its reply. */
  ask<T>(message: Serializable): Promise<T>;
  close(): Promise<void>;
}

/** Starts `file` (which calls serveModel) in a child process. */
export async function forkModel(file: string): Promise<ModelProcess> {
  const child = fork(file, [], {
    // Resolved from this package: a bare `tsx` would be looked up from the caller's working
    // directory, and the e2e package (which runs bench:hostile's suite in CI) has no tsx.
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the scripted model exited with ${code}`)));
  });
  return {
    url,
    ask: (message) =>
      new Promise((resolve) => {
        child.once('message', (reply) => resolve(reply as never));
        child.send(message);
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Whether the module at `filename` runs as the forked model (not imported by a test). */
export const forkedAsModel = (filename: string) =>
  process.send !== undefined && filename === process.argv[1];

/** In the model's process: report the URL, answer each message with `reply`, stop when told. */
export function serveModel(
  model: { url: string; close(): Promise<void> },
  reply: (message: unknown) => Serializable,
): void {
  process.send?.({ url: model.url });
  process.on('message', (message) => process.send?.(reply(message)));
  const stop = () => void model.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}
