/** Starts HTTP MCP servers as real child processes for tests, and stops them. */
import { type ChildProcess, spawn } from 'node:child_process';
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
