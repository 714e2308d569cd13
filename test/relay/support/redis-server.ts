// A private redis-server for the Redis suites: 127.0.0.1, a free port, no persistence, stopped
// after the suite. Without the binary the suites skip with a one-line hint; under CI=true (where
// .ci/run installs it) a missing binary fails them.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';

const HOW_TO_GET_REDIS = 'install it with `apt-get install -y redis-server` (Debian), or set REDIS_SERVER to a redis-server binary';

/** The redis-server to start: `REDIS_SERVER`, else Debian's `/usr/bin/redis-server`, else one on the PATH. */
export function findRedisServer(): string | null {
  const given = process.env.REDIS_SERVER;
  if (given !== undefined && given !== '') return existsSync(given) ? given : null;
  if (existsSync('/usr/bin/redis-server')) return '/usr/bin/redis-server';
  try {
    return execFileSync('which', ['redis-server'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A running private server. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Sends one command on a short-lived admin connection (CLIENT LIST, CLIENT KILL, INFO …). */
  admin(args: readonly string[]): Promise<unknown>;
  stop(): Promise<void>;
}

/** Starts a private server with `binary` (the Redis suites and the bench). */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'partstream-redis-'));
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  const url = `redis://127.0.0.1:${port}`;
  const admin = createClient({ url, socket: { reconnectStrategy: false } });
  admin.on('error', () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await admin.connect();
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}: ${stderr.trim() || String(error)}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    port,
    url,
    admin: (args) => admin.sendCommand([...args]),
    stop: async () => {
      admin.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a private server before the suite (skipping it, or failing under CI=true, without the
 * binary) and stops it after; the returned getter gives the running server inside tests.
 */
export function useRedisServer(): () => RedisServer {
  let server: RedisServer | undefined;
  before(async function () {
    this.timeout(20_000);
    const binary = findRedisServer();
    if (binary === null) {
      const how = `redis-server is not installed: ${HOW_TO_GET_REDIS}`;
      // CI installs redis-server in .ci/run: missing there, the Redis guarantees would go untested.
      if (process.env.CI === 'true') throw new Error(how);
      console.warn(`      skipped: ${how}`);
      this.skip();
    }
    server = await startRedisServer(binary as string);
  });
  after(async () => {
    await server?.stop();
    server = undefined;
  });
  return () => {
    if (server === undefined) throw new Error('Expected the private redis-server to be running');
    return server;
  };
}
