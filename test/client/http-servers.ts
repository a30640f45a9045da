/** Starts HTTP MCP servers as real child processes for tests, and stops them. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { ROOT } from './helpers.js';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Spawns `node <script> <args>` and waits for a line matching `pattern` on stdout/stderr that holds the URL or port. */
export function startServer(
  script: string,
  args: string[],
  find: (line: string) => string | undefined,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [path.resolve(ROOT, script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 20 s`)), 20_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        const url = find(line);
        if (url) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          child.stderr?.off('data', onData);
          child.stdout?.resume();
          child.stderr?.resume();
          resolve({
            url,
            stop: () =>
              new Promise<void>((done) => {
                if (child.exitCode !== null) return done();
                child.once('exit', () => done());
                child.kill('SIGTERM');
                setTimeout(() => child.kill('SIGKILL'), 3000).unref();
              }),
          });
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
}

export function startDemoHttp(json: boolean): Promise<RunningServer> {
  return startServer(
    'examples/demo-server.mjs',
    ['--http', '0', ...(json ? ['--json-response'] : [])],
    (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
  );
}

/** A fixture reached over one transport: the config to connect with, and the way to stop what was started. */
export interface FixtureTarget {
  config: { command: string; args: string[] } | { url: string };
  stop(): Promise<void>;
}

/**
 * A fixture that serves stdio by default and Streamable HTTP with `--http 0` (printing `listening <url>`):
 * over stdio, the command each client spawns; over HTTP, the server started here.
 */
export async function fixtureTarget(script: string, transport: 'stdio' | 'http'): Promise<FixtureTarget> {
  if (transport === 'stdio')
    return {
      config: { command: process.execPath, args: [path.resolve(ROOT, script)] },
      stop: async () => {},
    };
  const http = await startServer(
    script,
    ['--http', '0'],
    (line) => line.match(/listening (http:\/\/\S+)/)?.[1],
  );
  return { config: { url: http.url }, stop: () => http.stop() };
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for servers that take a port but cannot print theirs). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
