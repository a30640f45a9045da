// Starting the bench server and describing it as a Target: stdio targets are spawned by each client itself,
// HTTP servers are started here (`--http 0`) and stopped by the harness.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Revision, Target } from './clients/types.js';

/** Absolute path of the hand-written bench server. */
export const SERVER_PATH = fileURLToPath(new URL('./server.mjs', import.meta.url));
/** Absolute path of the second HTTP server, on the official SDK v2. */
export const SDK_SERVER_PATH = fileURLToPath(new URL('./sdk-server.mjs', import.meta.url));

/**
 * Which HTTP server answers: the hand-written one as it always ran (Node's default framing, which is a
 * chunked body after `writeHead`), the same one with a Content-Length on every answer, or the SDK v2 one.
 */
export type HttpServerKind = 'bench' | 'bench-sized' | 'sdk-v2';

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

/** Starts an HTTP server on an ephemeral port; `sse` makes it answer every request as an SSE stream. */
export async function startHttpServer(sse: boolean, kind: HttpServerKind = 'bench'): Promise<HttpServer> {
  const args = [
    kind === 'sdk-v2' ? SDK_SERVER_PATH : SERVER_PATH,
    '--http',
    '0',
    ...(sse ? ['--sse'] : []),
    ...(kind === 'bench-sized' ? ['--content-length'] : []),
  ];
  // Inferred as ChildProcessByStdio<null, Readable, null>: with stdout piped, `child.stdout` is never null.
  // The SDK server warns on stderr that JSON answers drop mid-call notifications: true, and none are sent.
  const stderr = kind === 'sdk-v2' ? 'ignore' : 'inherit';
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', stderr] });
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
