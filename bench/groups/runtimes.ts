// Runtimes: the library's cold start and per-call p50 under Node, Bun and Deno (pinned npm packages, fetched
// as the runtime suite fetches them: test/runtimes/binaries.ts). Cold start: a fresh process of each runtime
// per sample runs bench/cold/raw-*.mjs or autos.mjs (one `echo`, then exit), timed from spawn to exit, all
// runtimes and both programs interleaved. Per call: a fresh process per round runs bench/cold/calls.mjs
// (warm-up, then sequential `echo` calls on one connection). The servers are Node processes either way.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Runtime, type RuntimeName, resolveRuntime } from '../../test/runtimes/binaries.js';
import type { Row, Section } from '../model.js';
import { median, quantile } from '../stats.js';
import { SERVER_PATH, startHttpServer } from '../targets.js';
import { cells, interleave, type Samples } from './interleave.js';

const COLD = fileURLToPath(new URL('../cold/', import.meta.url));
const NAMES: readonly RuntimeName[] = ['node', 'bun', 'deno'];

/** Counts for one run of this group. */
export interface RuntimesOptions {
  rounds: number;
  callRounds: number;
  calls: number;
  warmup: number;
  log: (line: string) => void;
}

/** Runs `argv` to its exit; resolves [spawn → exit in ms, stdout]; rejects on a non-zero exit. */
function timed(argv: readonly string[]): Promise<[number, string]> {
  const [command, ...args] = argv;
  return new Promise((resolve, reject) => {
    // A small environment, as in the cold-start group: nothing of the tsx harness is inherited.
    const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1' };
    const t0 = process.hrtime.bigint();
    const child = spawn(command ?? '', args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0)
        reject(new Error(`runtimes: ${argv.join(' ')} exited with ${code}: ${(err || out).slice(0, 400)}`));
      else resolve([ms, out]);
    });
  });
}

function title(runtime: Runtime): string {
  const name = { node: 'Node', bun: 'Bun', deno: 'Deno' }[runtime.name];
  return `${name} ${runtime.version.replace(/^v/, '')}`;
}

/** The samples of one runtime, its two programs renamed to the raw and autos-mcp columns. */
function columns(samples: Samples, runtime: RuntimeName): Samples {
  const out: Samples = new Map();
  for (const column of ['raw', 'autos-mcp']) {
    const rounds = samples.get(`${runtime} ${column}`);
    if (rounds !== undefined) out.set(column, rounds);
  }
  return out;
}

/** Runs the runtimes group. */
export async function runRuntimes(options: RuntimesOptions): Promise<Section> {
  const runtimes = NAMES.map(resolveRuntime);
  const stdioServer = [process.execPath, SERVER_PATH];
  const server = await startHttpServer(false);
  const rows: Row[] = [];
  try {
    for (const [what, target] of [
      ['stdio', stdioServer],
      ['HTTP', [server.url]],
    ] as const) {
      const names = runtimes.flatMap((r) => [`${r.name} raw`, `${r.name} autos-mcp`]);
      const samples = await interleave(names, options.rounds, async (name) => {
        const [runtimeName, program] = name.split(' ') as [RuntimeName, string];
        const runtime = runtimes.find((r) => r.name === runtimeName);
        if (runtime === undefined) throw new Error(`runtimes: no runtime ${runtimeName}`);
        const script =
          program === 'raw' ? (what === 'stdio' ? 'raw-stdio.mjs' : 'raw-http.mjs') : 'autos.mjs';
        const [ms, out] = await timed([...runtime.run, `${COLD}${script}`, ...target]);
        if (!out.includes('cold'))
          throw new Error(`runtimes: ${name} ${what} printed no result: ${out.slice(0, 200)}`);
        return [ms];
      });
      for (const runtime of runtimes) {
        rows.push({
          label: `${title(runtime)}: cold start ${what}, launch to exit`,
          unit: 'ms',
          lowerIsBetter: true,
          cells: cells(columns(samples, runtime.name), median),
        });
      }
      options.log(`runtimes: cold start ${what}`);
    }
    for (const [what, target] of [
      ['stdio 2025-11-25', stdioServer],
      ['HTTP JSON 2025-11-25', [server.url]],
    ] as const) {
      const samples = await interleave(
        runtimes.map((r) => r.name),
        options.callRounds,
        async (name) => {
          const runtime = runtimes.find((r) => r.name === name);
          if (runtime === undefined) throw new Error(`runtimes: no runtime ${name}`);
          const argv = [
            ...runtime.run,
            `${COLD}calls.mjs`,
            String(options.calls),
            String(options.warmup),
            ...target,
          ];
          const [, out] = await timed(argv);
          return JSON.parse(out.trim()) as number[];
        },
      );
      for (const runtime of runtimes) {
        const mine = samples.get(runtime.name);
        if (mine === undefined) continue;
        rows.push({
          label: `${title(runtime)}: ${what} per-call p50`,
          unit: 'ms',
          lowerIsBetter: true,
          cells: cells(new Map([['autos-mcp', mine]]), (v) => quantile(v, 0.5)),
        });
      }
      options.log(`runtimes: per call ${what}`);
    }
  } finally {
    await server.stop();
  }
  return {
    id: 'runtimes',
    title: 'Runtimes: Node, Bun and Deno',
    description:
      `The library from \`dist/\` under each runtime (${runtimes.map(title).join(', ')}; Bun and Deno from their npm ` +
      `packages). Cold start: a fresh process per sample (${options.rounds} rounds, all runtimes interleaved, median) ` +
      'that makes one `echo` call at 2025-11-25 and exits, timed from the spawn to its exit; `raw` is the same plain ' +
      'script as in the cold-start group, run by the same runtime. Per call: a fresh process per round ' +
      `(${options.callRounds} rounds) makes ${options.warmup} warm-up and ${options.calls} timed sequential \`echo\` ` +
      'calls on one connection, p50 over all. The servers (`bench/server.mjs`) run on this Node.',
    rows,
  };
}
