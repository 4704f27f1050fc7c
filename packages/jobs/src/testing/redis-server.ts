// A throwaway redis-server for integration suites: started on a free port, with no persistence,
// stopped by the pid it wrote. Suites call `redisServerInstalled()` first and skip (saying so)
// on machines without it, so that `npm test` never fails for want of Redis.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** The one line a suite prints when it skips for want of redis-server. */
export const redisServerMissing = (suite: string): string =>
  `redis-server not found: ${suite} is skipped (apt-get install redis-server)`;

/** Whether `redis-server` runs here (found on PATH by the spawn itself). */
export function redisServerInstalled(): boolean {
  const result = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return result.error === undefined && result.status === 0;
}

/** A port nothing listens on now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True once the server answers PING on `port`. */
const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopByPid(pid: number, dir: string): Promise<void> {
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await sleep(20);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

async function startOn(port: number, dir: string): Promise<RedisServer | null> {
  const pidfile = path.join(dir, 'redis.pid');
  const started = spawnSync(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--daemonize', 'yes', '--pidfile', pidfile, '--dir', dir],
      ...['--logfile', path.join(dir, 'redis.log')],
    ],
    { encoding: 'utf8' },
  );
  if (started.error || started.status !== 0) {
    throw new Error(`redis-server did not start: ${started.error?.message ?? started.stderr}`);
  }
  // Redis writes its pidfile once it listens: a pidfile and a PONG are this server's.
  const pidOf = () => {
    try {
      return Number(readFileSync(pidfile, 'utf8').trim());
    } catch {
      return NaN;
    }
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const pid = pidOf();
    if (pid > 0 && (await answers(port))) {
      return { url: `redis://127.0.0.1:${port}`, port, pid, stop: () => stopByPid(pid, dir) };
    }
    await sleep(50);
  }
  const pid = pidOf();
  if (pid > 0) await stopByPid(pid, dir);
  return null; // most likely the port was taken meanwhile, and the daemon exited
}

/**
 * Starts a redis-server on a free port (or on `port`: a suite that lets a client wait for a
 * Redis that comes up later); `stop()` ends it by pid and removes its files.
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServer> {
  for (let tries = 0; tries < 3; tries++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-redis-'));
    const server = await startOn(options.port ?? (await freePort()), dir);
    if (server) return server;
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('redis-server did not answer on any port tried');
}
