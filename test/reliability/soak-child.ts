/**
 * Soak worker, run as `node --expose-gc --import tsx soak-child.ts <stdio|http> <calls> <concurrency>`:
 * makes that many echo calls against bench/server.mjs (stdio, or `--http 0`) through one client, and
 * prints one JSON line with the rate and heapUsed after a warm-up and at the end (both after `gc()`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type ServerConfig } from '../../src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'bench/server.mjs');
const [transport = 'stdio', callsArg = '20000', concurrencyArg = '8'] = process.argv.slice(2);
const calls = Number(callsArg);
const concurrency = Number(concurrencyArg);

async function httpServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    seen += chunk;
    const match = /listening (http:\/\/\S+)/.exec(seen);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error('bench server did not print its URL');
}

const gc = (globalThis as { gc?: () => void }).gc;
function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

let server: ChildProcess | undefined;
let config: ServerConfig;
if (transport === 'http') {
  const started = await httpServer();
  server = started.child;
  config = { url: started.url };
} else {
  config = { command: process.execPath, args: [SERVER] };
}

const client = await connect(config);
let wrong = 0;
let next = 0;
async function worker(limit: number): Promise<void> {
  while (next < limit) {
    const text = `call ${next++}`;
    const result = await client.callTool('echo', { text });
    const block = (result as { content?: Array<{ text?: string }> }).content?.[0];
    if (block?.text !== text) wrong++;
  }
}
async function run(limit: number): Promise<void> {
  await Promise.all(Array.from({ length: concurrency }, () => worker(limit)));
}

const warmup = Math.max(1000, Math.floor(calls / 10));
await run(warmup);
const heapBefore = heap();
const started = performance.now();
await run(warmup + calls);
const seconds = (performance.now() - started) / 1000;
const heapAfter = heap();
const report = await client.close();
if (server) {
  server.kill('SIGTERM');
  await once(server, 'exit');
}
process.stdout.write(
  `${JSON.stringify({
    transport,
    calls,
    concurrency,
    seconds: Number(seconds.toFixed(2)),
    callsPerSecond: Math.round(calls / seconds),
    heapBefore,
    heapAfter,
    wrong,
    activeProcesses: report.process?.activeProcesses ?? 0,
    gc: gc !== undefined,
  })}\n`,
);
