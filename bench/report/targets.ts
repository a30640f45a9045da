// The performance targets, checked against a report. Each target names the rows it reads, so a
// missing measurement shows as "not measured" rather than as met.
import { COLD_ROWS } from '../groups/cold-start.js';
import { WORKER_LARGE_ROW, WORKER_ROW } from '../groups/worker.js';
import type { BenchReport, Row } from '../model.js';
import { formatRatio, formatValue } from './format.js';

/** One target's verdict: `met` is undefined when the figures it needs were not measured. */
export interface TargetVerdict {
  target: string;
  measured: string;
  met: boolean | undefined;
}

const CLIENT = 'autos-mcp';

function rows(report: BenchReport, test: (label: string) => boolean): Row[] {
  return report.sections.flatMap((s) => s.rows).filter((r) => test(r.label));
}

/** The worst (largest) value of `pick` over `rs`, with its row label; undefined when no row has it. */
function worst(
  rs: Row[],
  pick: (r: Row) => number | undefined,
): { value: number; label: string } | undefined {
  let out: { value: number; label: string } | undefined;
  for (const r of rs) {
    const v = pick(r);
    if (v !== undefined && (out === undefined || v > out.value)) out = { value: v, label: r.label };
  }
  return out;
}

function ratioTarget(
  target: string,
  rs: Row[],
  pick: (r: Row) => number | undefined,
  limit: number,
): TargetVerdict {
  const w = worst(rs, pick);
  if (w === undefined) return { target, measured: 'not measured', met: undefined };
  return { target, measured: `worst ${formatRatio(w.value)} (${w.label})`, met: w.value <= limit };
}

function valueTarget(
  target: string,
  label: string,
  report: BenchReport,
  limit: number,
  unit: string,
): TargetVerdict {
  const v = rows(report, (l) => l === label)[0]?.cells[CLIENT]?.value;
  if (v === undefined) return { target, measured: 'not measured', met: undefined };
  return { target, measured: `${formatValue(v)} ${unit}`, met: v <= limit };
}

/** autos-mcp's value minus raw's in the row `label`, within `limit` ms. */
function overRawTarget(target: string, label: string, report: BenchReport, limit: number): TargetVerdict {
  const row = rows(report, (l) => l === label)[0];
  const mine = row?.cells[CLIENT]?.value;
  const floor = row?.cells['raw']?.value;
  if (mine === undefined || floor === undefined) return { target, measured: 'not measured', met: undefined };
  const over = mine - floor;
  return {
    target,
    measured: `${formatValue(mine)} ms, raw ${formatValue(floor)} ms (${over >= 0 ? '+' : ''}${formatValue(over)} ms)`,
    met: over <= limit,
  };
}

/** Checks every target of the Benchmarks issue against the report. */
export function assessTargets(report: BenchReport): TargetVerdict[] {
  const stdioP50 = rows(report, (l) => l.startsWith('stdio ') && l.endsWith(' p50'));
  const httpP50 = rows(report, (l) => l.startsWith('HTTP ') && l.endsWith(' p50'));
  // Against the SDK v2 server a call is mostly the server's own milliseconds, the same for every client, so
  // ratios between clients say little there: those rows are shown, and the targets read the hand-written server.
  const handWritten = httpP50.filter((r) => !r.label.includes('(SDK v2 server)'));
  const vsRaw = (r: Row) => r.cells[CLIENT]?.ratioVsRaw;
  const vsUndici = (r: Row) => r.cells[CLIENT]?.ratioVsUndici;
  const vsSdk = (r: Row) => r.cells[CLIENT]?.ratioVsSdkV2;
  const growth = rows(report, (l) => l.startsWith('RSS growth'))[0]?.cells[CLIENT]?.value;
  return [
    ratioTarget('stdio p50 ≤ 1.3× raw', stdioP50, vsRaw, 1.3),
    ratioTarget('HTTP p50 ≤ 1.15× raw node:http (hand-written server)', handWritten, vsRaw, 1.15),
    ratioTarget('HTTP p50 ≤ 1.15× raw undici (hand-written server)', handWritten, vsUndici, 1.15),
    // The Benchmarks issue asked ≤ 0.5× SDK v2 of both transports; issue 26 asked ≤ 0.3× of HTTP.
    ratioTarget('stdio p50 ≤ 0.5× SDK v2', stdioP50, vsSdk, 0.5),
    ratioTarget('HTTP p50 ≤ 0.3× SDK v2 (hand-written server)', handWritten, vsSdk, 0.3),
    ratioTarget(
      '64 MiB result ≤ 1.2× raw',
      rows(report, (l) => l.startsWith('64 MiB')),
      vsRaw,
      1.2,
    ),
    overRawTarget('cold start HTTP, launch to exit ≤ raw node:http + 25 ms', COLD_ROWS.httpExit, report, 25),
    overRawTarget('cold start stdio, launch to exit ≤ raw + 25 ms', COLD_ROWS.stdioExit, report, 25),
    ratioTarget(
      'cold start CLI `call` HTTP ≤ 1.5× raw',
      rows(report, (l) => l === COLD_ROWS.cliHttpExit),
      vsRaw,
      1.5,
    ),
    ratioTarget(
      'cold start CLI `call` stdio ≤ 1.5× raw',
      rows(report, (l) => l === COLD_ROWS.cliStdioExit),
      vsRaw,
      1.5,
    ),
    valueTarget('import ≤ 30 ms over node start', 'cold import (over bare node start)', report, 30, 'ms'),
    valueTarget('runtime install ≤ 3 MB', 'runtime install size', report, 3, 'MB'),
    valueTarget('runtime install ≤ 5 packages', 'runtime packages', report, 5, 'packages'),
    valueTarget('worker per-call p50 ≤ +50 µs over a direct client', WORKER_ROW, report, 50, 'µs'),
    ratioTarget(
      'worker large result (1, 8 MiB) ≤ 1.2× a direct call',
      rows(report, (l) => l.startsWith(WORKER_LARGE_ROW)),
      (r) => r.cells[CLIENT]?.value,
      1.2,
    ),
    growth === undefined
      ? { target: 'RSS after 10k calls within 10% of after 1k', measured: 'not measured', met: undefined }
      : {
          target: 'RSS after 10k calls within 10% of after 1k',
          measured: `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %`,
          met: Math.abs(growth) <= 10,
        },
  ];
}

/** The verdicts as a markdown table. */
export function renderTargets(verdicts: readonly TargetVerdict[]): string {
  const mark = (m: boolean | undefined) => (m === undefined ? 'not measured' : m ? '**met**' : '**not met**');
  return [
    '| target | autos-mcp measured | verdict |',
    '|---|---|---|',
    ...verdicts.map((v) => `| ${v.target} | ${v.measured} | ${mark(v.met)} |`),
  ].join('\n');
}
