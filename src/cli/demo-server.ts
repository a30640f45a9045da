/**
 * `autos-mcp demo-server`: the demo MCP server shipped in the package, on stdio. Written by hand with no
 * dependency (one JSON-RPC message per line), so it runs from an installed copy alone. It speaks
 * 2025-11-25 (`initialize`) and 2026-07-28 (stateless, `_meta` on every request), with the tools of
 * `examples/demo-server.mjs`: echo, slow (progress notifications), image (a generated PNG), fail (an
 * `isError` result). This file is the entry (stdin framing, the command line that starts it); the JSON-RPC
 * side is `demo-server/server.ts` and each tool a module of `demo-server/`.
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DemoServer } from './demo-server/server.js';

/** The longest line read; a longer one is answered with a parse error and skipped. */
const MAX_LINE = 4 * 1024 * 1024;

/** Where the server reads and writes (`process.stdin` and `process.stdout` fit). */
interface DemoServerIo {
  stdin: {
    setEncoding(encoding: BufferEncoding): unknown;
    on(event: 'data', listener: (chunk: string) => void): unknown;
    on(event: 'end' | 'close', listener: () => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
  };
  stdout: { write(text: string): unknown };
}

/**
 * Serves the demo on `stdin`/`stdout` (one JSON message per line) until stdin ends; resolves then, with
 * every call in flight stopped and no timer left.
 */
export function serveDemo(io: DemoServerIo): Promise<void> {
  const server = new DemoServer((line) => io.stdout.write(line));
  return new Promise((resolve) => {
    let buffered = '';
    let skipping = false;
    io.stdin.setEncoding('utf8');
    io.stdin.on('data', (chunk: string) => {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        const piece = chunk.slice(start, nl);
        start = nl + 1;
        if (skipping) skipping = false;
        else server.line(buffered + piece);
        buffered = '';
      }
      if (skipping) return;
      buffered += chunk.slice(start);
      if (buffered.length > MAX_LINE) {
        buffered = '';
        skipping = true;
        server.send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error: line too long' },
        });
      }
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      server.stop();
      resolve();
    };
    io.stdin.on('end', end);
    io.stdin.on('close', end);
    io.stdin.on('error', end);
  });
}

/** This module's own file: `node <it>` runs the server, as `autos-mcp demo` does (no repository needed). */
const DEMO_SERVER_SCRIPT = fileURLToPath(import.meta.url);

/** The command line that starts the bundled demo server over stdio. */
export function demoServerCommand(): { command: string; args: string[] } {
  // From the source tree (tests under tsx) the module is TypeScript and needs the tsx loader.
  const loader = DEMO_SERVER_SCRIPT.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return { command: process.execPath, args: [...loader, DEMO_SERVER_SCRIPT] };
}

function runAsScript(): boolean {
  const entry = process.argv[1];
  // Only as its own file (a chunk of the bundle, or the source), never when inlined into another one.
  if (entry === undefined || !basename(DEMO_SERVER_SCRIPT).startsWith('demo-server')) return false;
  try {
    return realpathSync(entry) === realpathSync(DEMO_SERVER_SCRIPT);
  } catch {
    return false;
  }
}

if (runAsScript()) void serveDemo({ stdin: process.stdin, stdout: process.stdout });
