// Per-call cost of autos-mcp/worker: sequential `echo` calls through a worker against a direct autos-mcp client
// over the same stdio bench server (each holds its own server process), in interleaved rounds. The added cost
// is the median over rounds of (worker p50 − direct p50); the target is ≤ +50 µs. A bare round trip to an
// idle thread over a MessagePort pair (what the caller that opened a worker uses) is measured alongside as
// the floor: a worker call makes one such round trip more than a direct call, so the machine sets that
// part. Large results (1 MiB, 8 MiB) through the worker are given as a ratio to the direct call (≤ 1.2×).
import { MessageChannel, Worker } from 'node:worker_threads';
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
/** Label prefix of the large-result rows (worker time over direct time, per size); the target reads them. */
export const WORKER_LARGE_ROW = 'worker: large result, worker / direct';
/** Result sizes of the large-result rows, and the calls per round for each. */
const LARGE = [
  { bytes: 1024 * 1024, label: '1 MiB', calls: 20 },
  { bytes: 8 * 1024 * 1024, label: '8 MiB', calls: 5 },
] as const;

/**
 * The floor: an idle thread that answers every message on a MessagePort pair (the channel between a
 * worker and the caller that opened it).
 */
async function bareHop(): Promise<Path> {
  const code = `const { parentPort, workerData } = require('node:worker_threads');
workerData.port.on('message', (m) => workerData.port.postMessage({ t: 'ok', rid: m.rid, value: { content: [{ type: 'text', text: 'hello' }] } }));
parentPort.postMessage('up');`;
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(code, { eval: true, workerData: { port: port2 }, transferList: [port2] });
  await new Promise((resolve) => thread.once('message', resolve));
  let answer: (() => void) | undefined;
  port1.on('message', () => answer?.());
  let rid = 0;
  return {
    call: () =>
      new Promise<void>((resolve) => {
        answer = resolve;
        port1.postMessage({ t: 'req', rid: rid++, name: 'echo', args: { text: 'hello' } });
      }),
    async close() {
      port1.close();
      await thread.terminate();
    },
  };
}

/** One call per size of `LARGE`, direct and through the worker, interleaved: the worker/direct ratios. */
async function largeRows(
  call: Record<'direct' | 'worker', (bytes: number) => Promise<unknown>>,
  rounds: number,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of LARGE) {
    for (const path of Object.values(call)) await path(size.bytes);
    const samples = await interleave(['direct', 'worker'], rounds, async (name) => {
      const path = call[name as 'direct' | 'worker'];
      const out = new Array<number>(size.calls);
      for (let i = 0; i < size.calls; i++) {
        const t0 = process.hrtime.bigint();
        await path(size.bytes);
        out[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
      return out;
    });
    const p50s = (name: string) => (samples.get(name) ?? []).map((r) => quantile(r, 0.5));
    const direct = p50s('direct');
    const ratio = median(p50s('worker').map((w, i) => w / (direct[i] ?? Number.NaN)));
    rows.push({
      label: `${WORKER_LARGE_ROW} ${size.label}`,
      unit: '×',
      lowerIsBetter: true,
      cells: {
        'autos-mcp': {
          value: ratio,
          note: `direct p50 ${median(direct).toFixed(1)} ms; median of per-round ratios`,
        },
      },
    });
  }
  return rows;
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
    const large = await largeRows(
      {
        direct: (bytes) => client.callTool('blob', { bytes }),
        worker: (bytes) => worker.module.callTool(id, 'blob', { bytes }),
      },
      options.rounds,
    );
    options.log(
      `worker: large results ${large.map((r) => r.cells['autos-mcp']?.value.toFixed(2)).join(', ')}× direct`,
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
      ...large,
    ];
    return {
      id: 'worker',
      title: 'autos-mcp/worker: per-call cost of the thread hop',
      description:
        `Sequential \`echo\` calls (${options.calls} per round, ${options.rounds} rounds, interleaved) through \`autos-mcp/worker\` ` +
        'against a direct autos-mcp client over the same stdio bench server. The added cost is the median over rounds ' +
        'of the difference of the p50s. The floor is a bare MessagePort round trip to an idle thread (the `raw` column): ' +
        'a worker call makes one more such round trip than a direct call. The large-result rows call `blob` (1 MiB: ' +
        `${LARGE[0].calls} calls per round, 8 MiB: ${LARGE[1].calls}) both ways and give the median of the per-round ratios ` +
        'of the p50s, worker over direct.',
      rows,
    };
  } finally {
    for (const path of paths.values()) await path.close().catch(() => {});
  }
}
