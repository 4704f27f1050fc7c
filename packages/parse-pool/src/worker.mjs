// The entry of each pool thread. The workspace packages export TypeScript source (no build
// step), so the thread loads them through tsx, as the CLI and the benches do; the server's own
// bundle is not used here because a bundler cannot see a file a pool opens at run time.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

/**
 * Parsing runs below the event loop's CPU priority (nice 10 for this thread, and for the threads
 * it starts, which inherit it): on a small machine a busy pool (OCR of a scan on every core)
 * otherwise takes the cores the loop needs to answer everyone else. Linux only: elsewhere
 * /proc/thread-self does not exist and the thread keeps the process's priority.
 */
export const PARSE_THREAD_NICE = 10;
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, PARSE_THREAD_NICE);
} catch {
  // Not Linux, or not allowed: the pool still works, at the process's priority.
}

register();
const { runJob } = await import('./jobs.ts');

export default runJob;
