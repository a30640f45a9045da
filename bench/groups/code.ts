// autos-mcp/code: the sandbox's start-up and a bridge call's cost. Start-up: the first `runCode` of a fresh
// process (importing autos-mcp/code and loading the QuickJS WebAssembly module included), measured inside
// child processes; then a later run (`return 1`: a fresh runtime and context, the prelude, compile, dispose)
// in this process. The bridge: N sequential `echo` calls from inside one run against N direct
// `client.callTool` calls on the same client over the stdio bench server, in interleaved rounds; the
// added cost per call is ((run of N calls − a run of no call) − N direct calls) / N. Target: < 1 ms.
import { execFileSync } from 'node:child_process';
import type { Revision } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { median, quantile } from '../stats.js';
import { stdioTarget } from '../targets.js';
import { interleave } from './interleave.js';

/** Counts for one run of this group. */
export interface CodeOptions {
  rounds: number;
  calls: number;
  coldRuns: number;
  revision: Revision;
  log: (line: string) => void;
}

interface Client {
  callTool(name: string, args: object, options?: object): Promise<unknown>;
  close(): Promise<unknown>;
}
type RunCode = (source: string, options: object) => Promise<{ error?: unknown; value?: unknown }>;

/** The row label the targets read (the added cost of one bridge call). */
export const CODE_CALL_ROW = 'code: added per bridge call';

/** The first run of a fresh process, in ms: import + wasm load + one run, timed by the child. */
function coldStart(codeDist: string): number {
  const script = `const t0 = performance.now();
const { runCode } = await import(${JSON.stringify(codeDist)});
const catalog = { search: async () => [], describe: async () => ({}), call: async () => ({}) };
const r = await runCode('return 1', { catalog });
if (r.value !== 1) throw new Error('cold run: ' + JSON.stringify(r));
process.stdout.write(String(performance.now() - t0));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

/** Runs the code group; `autosDist` and `codeDist` are the URLs of the built dist/index.js and dist/code.js. */
export async function runCode(autosDist: string, codeDist: string, options: CodeOptions): Promise<Section> {
  const cold = Array.from({ length: options.coldRuns }, () => coldStart(codeDist));
  const { connect } = (await import(autosDist)) as { connect(config: object): Promise<Client> };
  const { runCode: run } = (await import(codeDist)) as { runCode: RunCode };
  const target = stdioTarget(options.revision);
  if (target.transport !== 'stdio') throw new Error('code bench: want a stdio target');
  const client = await connect({
    command: target.command,
    args: target.args,
    protocolVersion: options.revision,
  });
  const catalog = {
    search: async () => [],
    describe: async () => ({}),
    call: (ref: string, args: object, callOptions: object) =>
      client.callTool(ref.slice(ref.indexOf('.') + 1), args, callOptions),
  };
  const args = { text: 'hello' };
  const n = options.calls;
  const loop = `for (let i = 0; i < ${n}; i++) await mcp.call('bench.echo', { text: 'hello' }); return ${n};`;
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const t0 = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const paths: Record<string, () => Promise<unknown>> = {
    empty: async () => {
      const r = await run('return 1', { catalog });
      if (r.value !== 1) throw new Error(`code bench: ${JSON.stringify(r)}`);
    },
    sandbox: async () => {
      const r = await run(loop, { catalog, maxCalls: n + 1 });
      if (r.value !== n) throw new Error(`code bench: ${JSON.stringify(r)}`);
    },
    direct: async () => {
      for (let i = 0; i < n; i++) await client.callTool('echo', args);
    },
  };
  try {
    for (const work of Object.values(paths)) await work(); // warm-up
    const samples = await interleave(Object.keys(paths), options.rounds, async (name) => {
      const work = paths[name];
      if (work === undefined) throw new Error(`code bench: no path ${name}`);
      return [await timed(work)];
    });
    const per = (name: string) => (samples.get(name) ?? []).map((r) => r[0] ?? Number.NaN);
    const empty = per('empty');
    const direct = per('direct');
    const addedUs = median(
      per('sandbox').map((s, i) => ((s - (empty[i] ?? 0) - (direct[i] ?? 0)) / n) * 1000),
    );
    const directUs = (median(direct) / n) * 1000;
    options.log(
      `code: cold first run ${median(cold).toFixed(1)} ms, later run ${median(empty).toFixed(2)} ms, direct call ${directUs.toFixed(1)} µs, +${addedUs.toFixed(1)} µs per bridge call`,
    );
    const rows: Row[] = [
      {
        label: 'code: first run in a fresh process (import + wasm load + run) p50',
        unit: 'ms',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: quantile(cold, 0.5) } },
      },
      {
        label: 'code: a later run (`return 1`) p50',
        unit: 'ms',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: quantile(empty, 0.5) } },
      },
      {
        label: `code: direct callTool stdio ${options.revision} per call`,
        unit: 'µs',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: directUs } },
      },
      {
        label: CODE_CALL_ROW,
        unit: 'µs',
        lowerIsBetter: true,
        cells: { 'autos-mcp': { value: addedUs, note: 'median of per-round differences' } },
      },
    ];
    return {
      id: 'code',
      title: 'autos-mcp/code: sandbox start-up and the cost of a bridge call',
      description:
        `The first \`runCode\` of a fresh process (${options.coldRuns} child processes), a later run, and ${n} sequential ` +
        `\`echo\` calls from inside one run against ${n} direct \`callTool\` calls on the same client (stdio bench server, ` +
        `${options.rounds} interleaved rounds). Added per call = (run − empty run − direct) / ${n}; target under 1 ms.`,
      rows,
    };
  } finally {
    await client.close();
  }
}
