// Per-call cost of autos-mcp/worker: sequential `echo` calls through a worker against a direct autos-mcp client
// over the same stdio bench server (each holds its own server process), in interleaved rounds. The added cost
// is the median over rounds of (worker p50 − direct p50); the target is ≤ +50 µs. A bare round trip to an
// idle thread over a BroadcastChannel (the mechanism the worker uses) is measured alongside as the floor:
// a worker call makes one such round trip more than a direct call, so the machine sets that part.
import { BroadcastChannel, Worker } from 'node:worker_threads';
import type { Revision } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { median, quantile } from '../stats.js';
import { stdioTarget } from '../targets.js';
import { interleave } from './interleave.js';

/** Counts for one run of this group. */
export interface WorkerOptions {
  rounds: number;
  calls: number;
  warmup: number;
  revision: Revision;
  log: (line: string) => void;
}

/** The two paths measured: `call` sends one `echo`. */
interface Path {
  call(): Promise<unknown>;
  close(): Promise<unknown>;
}

/** The rows' label prefix (kept apart from the `stdio … p50` rows, which the stdio targets read). */
export const WORKER_ROW = 'worker: added per-call p50';

/** The floor: an idle thread that answers every message on one BroadcastChannel on another. */
async function bareHop(): Promise<Path> {
  const code = `const { BroadcastChannel, parentPort } = require('node:worker_threads');
const requests = new BroadcastChannel('bench-hop-requests');
const replies = new BroadcastChannel('bench-hop-replies');
requests.onmessage = (event) => replies.postMessage({ rid: event.data.rid, value: { content: [{ type: 'text', text: 'hello' }] } });
parentPort.postMessage('up');`;
  const thread = new Worker(code, { eval: true });
  await new Promise((resolve) => thread.once('message', resolve));
  const requests = new BroadcastChannel('bench-hop-requests');
  const replies = new BroadcastChannel('bench-hop-replies');
  let answer: (() => void) | undefined;
  replies.onmessage = () => answer?.();
  let rid = 0;
  return {
    call: () =>
      new Promise<void>((resolve) => {
        answer = resolve;
        requests.postMessage({ rid: rid++, name: 'echo', args: { text: 'hello' } });
      }),
    async close() {
      requests.close();
      replies.close();
      await thread.terminate();
    },
  };
}

/** Runs the worker group; `autosDist` is the URL of the built dist/index.js. */
export async function runWorker(autosDist: string, options: WorkerOptions): Promise<Section> {
  const { loadWorker } = await import('../clients/autos-worker.js');
  const worker = await loadWorker();
  const { connect } = (await import(autosDist)) as {
    connect(
      config: object,
    ): Promise<{ callTool(n: string, a: object): Promise<unknown>; close(): Promise<unknown> }>;
  };
  const target = stdioTarget(options.revision);
  if (target.transport !== 'stdio') throw new Error('worker bench: want a stdio target');
  const config = {
    command: target.command,
    args: target.args,
    protocolVersion: options.revision,
    timeoutMs: 120_000,
  };
  const args = { text: 'hello' };
  const paths = new Map<string, Path>();
  try {
    const client = await connect(config);
    paths.set('direct', { call: () => client.callTool('echo', args), close: () => client.close() });
    const id = await worker.module.open(config);
    paths.set('worker', {
      call: () => worker.module.callTool(id, 'echo', args),
      close: () => worker.module.close(id),
    });
    paths.set('hop', await bareHop());
    for (const path of paths.values()) for (let i = 0; i < options.warmup; i++) await path.call();
    const samples = await interleave(['direct', 'worker', 'hop'], options.rounds, async (name) => {
      const path = paths.get(name);
      if (path === undefined) throw new Error(`worker bench: no path ${name}`);
      const out = new Array<number>(options.calls);
      for (let i = 0; i < options.calls; i++) {
        const t0 = process.hrtime.bigint();
        await path.call();
        out[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
      return out;
    });
    const rounds = (name: string) => samples.get(name) ?? [];
    const p50 = (name: string) => quantile(rounds(name).flat(), 0.5);
    const direct = rounds('direct').map((r) => quantile(r, 0.5));
    const added = rounds('worker').map((r, i) => (quantile(r, 0.5) - (direct[i] ?? Number.NaN)) * 1000);
    const addedUs = median(added);
    const hopUs = p50('hop') * 1000;
    options.log(
      `worker: direct ${p50('direct').toFixed(3)} ms, worker ${p50('worker').toFixed(3)} ms, +${addedUs.toFixed(1)} µs; bare thread round trip ${hopUs.toFixed(1)} µs (${worker.source})`,
    );
    const rows: Row[] = [
      {
        label: `worker: direct client stdio ${options.revision} p50`,
        unit: 'ms',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: p50('direct') } },
      },
      {
        label: `worker: through the worker stdio ${options.revision} p50`,
        unit: 'ms',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: p50('worker') } },
      },
      {
        label: WORKER_ROW,
        unit: 'µs',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: addedUs, note: 'median of per-round differences' } },
      },
      {
        label: 'worker: bare thread round trip p50 (floor)',
        unit: 'µs',
        lowerIsBetter: true,
        cells: { raw: { value: hopUs } },
      },
    ];
    return {
      id: 'worker',
      title: 'autos-mcp/worker: per-call cost of the thread hop',
      description:
        `Sequential \`echo\` calls (${options.calls} per round, ${options.rounds} rounds, interleaved) through \`autos-mcp/worker\` ` +
        'against a direct autos-mcp client over the same stdio bench server. The added cost is the median over rounds ' +
        'of the difference of the p50s. The floor is a bare BroadcastChannel round trip to an idle thread (the `raw` column): ' +
        'a worker call makes one more such round trip than a direct call.',
      rows,
    };
  } finally {
    for (const path of paths.values()) await path.close().catch(() => {});
  }
}
