// The stdio floor: a hand-written JSON-RPC client over the child's pipes, with line framing that joins chunks
// only when a line ends and an id → resolver map. Nothing a real library could skip, so it bounds the others.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  type BenchClient,
  type BenchConnection,
  INITIALIZE_PARAMS,
  modernMeta,
  type Target,
} from './types.js';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** Connects over stdio, runs the revision's setup (initialize for 2025, nothing for 2026), returns the connection. */
async function connectStdio(target: Extract<Target, { transport: 'stdio' }>): Promise<BenchConnection> {
  // A small environment, like the libraries give their servers: the bench runs under tsx, and a child that
  // inherits its loader settings would start slower and make the floor look higher than it is.
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
  const child = spawn(target.command, target.args, { stdio: ['pipe', 'pipe', 'ignore'], env });
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let parts: Buffer[] = [];

  const dispatch = (line: Buffer) => {
    const message = JSON.parse(line.toString('utf8')) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    if (message.id === undefined) return; // notifications are not part of these runs
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      let line = chunk.subarray(start, nl);
      if (parts.length > 0) {
        parts.push(line);
        line = Buffer.concat(parts);
        parts = [];
      }
      if (line.length > 0) dispatch(line);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  child.on('exit', () => {
    for (const p of pending.values()) p.reject(new Error('server exited'));
    pending.clear();
  });

  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });

  const modern = target.revision === '2026-07-28';
  if (!modern) {
    await request('initialize', INITIALIZE_PARAMS);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }
  const meta = modern ? modernMeta() : undefined;
  return {
    call: (name, args) =>
      request('tools/call', meta ? { name, arguments: args, _meta: meta } : { name, arguments: args }),
    async close() {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}

/** The raw stdio floor client. */
export const rawStdio: BenchClient = {
  name: 'raw',
  supports: (target) => target.transport === 'stdio',
  connect: (target) => {
    if (target.transport !== 'stdio') throw new Error('raw-stdio only connects to stdio targets');
    return connectStdio(target);
  },
};
