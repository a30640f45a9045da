// Per-call latency and sequential throughput of `echo` over stdio, HTTP+JSON and HTTP+SSE at both revisions.
// Each client holds one connection per configuration; calls are sequential (one in flight) and timed singly.
// HTTP runs against three servers: the hand-written one as before (chunked answers), the same with a
// Content-Length on every answer, and the official SDK v2 server; two floors (node:http, undici) run beside.
import type { BenchClient, BenchConnection, Revision, Target } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { quantile } from '../stats.js';
import { type HttpServerKind, startHttpServer, stdioTarget } from '../targets.js';
import { cells, interleave } from './interleave.js';

/** Counts for one run of this group. */
export interface LatencyOptions {
  rounds: number;
  stdioCalls: number;
  httpCalls: number;
  warmup: number;
  log: (line: string) => void;
}

const REVISIONS: Revision[] = ['2025-11-25', '2026-07-28'];

/** The HTTP servers, with the suffix of their row labels (the first keeps the labels of earlier runs). */
const SERVERS: { kind: HttpServerKind; suffix: string; full: boolean }[] = [
  { kind: 'bench', suffix: '', full: true },
  { kind: 'bench-sized', suffix: ' (Content-Length server)', full: false },
  { kind: 'sdk-v2', suffix: ' (SDK v2 server)', full: false },
];

async function measure(
  clients: readonly BenchClient[],
  label: string,
  target: Target,
  calls: number,
  options: LatencyOptions,
  full = true,
): Promise<Row[]> {
  const active = clients.filter((c) => c.supports(target));
  const conns = new Map<string, BenchConnection>();
  try {
    for (const c of active) conns.set(c.name, await c.connect(target));
    const args = { text: 'hello' };
    for (const conn of conns.values()) for (let i = 0; i < options.warmup; i++) await conn.call('echo', args);
    const rates = new Map<string, number[][]>(active.map((c) => [c.name, []]));
    const latencies = await interleave(
      active.map((c) => c.name),
      options.rounds,
      async (name) => {
        const conn = conns.get(name);
        if (conn === undefined) throw new Error(`latency: no open connection for ${name}`);
        const rate = rates.get(name);
        if (rate === undefined) throw new Error(`latency: no rate list for ${name}`);
        const out = new Array<number>(calls);
        const start = process.hrtime.bigint();
        for (let i = 0; i < calls; i++) {
          const t0 = process.hrtime.bigint();
          await conn.call('echo', args);
          out[i] = Number(process.hrtime.bigint() - t0) / 1e6;
        }
        rate.push([(calls * 1e9) / Number(process.hrtime.bigint() - start)]);
        return out;
      },
    );
    options.log(`latency ${label}: ${active.map((c) => c.name).join(', ')}`);
    const p50: Row = {
      label: `${label} p50`,
      unit: 'ms',
      lowerIsBetter: true,
      chart: full,
      cells: cells(latencies, (v) => quantile(v, 0.5)),
    };
    if (!full) return [p50];
    return [
      p50,
      {
        label: `${label} p99`,
        unit: 'ms',
        lowerIsBetter: true,
        cells: cells(latencies, (v) => quantile(v, 0.99)),
      },
      {
        label: `${label} calls/s`,
        unit: 'calls/s',
        lowerIsBetter: false,
        cells: cells(rates, (v) => quantile(v, 0.5), true),
      },
    ];
  } finally {
    for (const conn of conns.values()) await conn.close().catch(() => {});
  }
}

/** Runs the latency group over every transport and revision. */
export async function runLatency(clients: readonly BenchClient[], options: LatencyOptions): Promise<Section> {
  const rows: Row[] = [];
  for (const revision of REVISIONS) {
    rows.push(
      ...(await measure(clients, `stdio ${revision}`, stdioTarget(revision), options.stdioCalls, options)),
    );
  }
  for (const { kind, suffix, full } of SERVERS) {
    for (const sse of [false, true]) {
      const server = await startHttpServer(sse, kind);
      try {
        for (const revision of REVISIONS) {
          const label = `HTTP ${sse ? 'SSE' : 'JSON'} ${revision}${suffix}`;
          const target = server.target(revision);
          rows.push(...(await measure(clients, label, target, options.httpCalls, options, full)));
        }
      } finally {
        await server.stop();
      }
    }
  }
  return {
    id: 'latency',
    title: 'Per-call latency and throughput',
    description:
      'Sequential `echo` calls on one open connection per client (one call in flight). p50/p99 per call; ' +
      'calls/s per round; the second and third HTTP servers get p50 rows only. Ratios are cost ratios (client time ÷ reference time; >1 is slower), the median of per-round ratios.',
    rows,
  };
}
