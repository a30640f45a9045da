// Starting the bench server and describing it as a Target: stdio targets are spawned by each client itself,
// HTTP servers are started here (`--http 0`) and stopped by the harness.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Revision, Target } from './clients/types.js';

/** Absolute path of the hand-written bench server. */
export const SERVER_PATH = fileURLToPath(new URL('./server.mjs', import.meta.url));

/** A stdio target running the bench server under the current node. */
export function stdioTarget(revision: Revision, warmBytes?: number): Target {
  const warm = warmBytes === undefined ? [] : ['--warm', String(warmBytes)];
  return { transport: 'stdio', revision, command: process.execPath, args: [SERVER_PATH, ...warm] };
}

/** A running HTTP bench server. */
export interface HttpServer {
  readonly url: string;
  target(revision: Revision): Target;
  stop(): Promise<void>;
}

/** Starts the bench server on an ephemeral port; `sse` makes it answer every request as an SSE stream. */
export async function startHttpServer(sse: boolean): Promise<HttpServer> {
  const args = [SERVER_PATH, '--http', '0', ...(sse ? ['--sse'] : [])];
  // Inferred as ChildProcessByStdio<null, Readable, null>: with stdout piped, `child.stdout` is never null.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  const url = /^listening (\S+)$/.exec(line)?.[1];
  if (url === undefined) throw new Error(`bench server did not report its URL: ${line}`);
  return {
    url,
    target: (revision) => ({ transport: 'http', revision, url }),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
