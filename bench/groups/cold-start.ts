// Cold start: a fresh `node` process per sample that does one `echo` call and exits by itself, timed from the
// spawn to its first line on stdout (launch to first result) and to its exit (launch to exit). Programs: the
// raw scripts (node:http, or line JSON over a pipe), the library from dist/, SDK v2, and the CLI's `call`;
// the library and SDK rows compare against raw, the CLI rows compare the CLI against the same raw script.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Row, Section } from '../model.js';
import { median } from '../stats.js';
import { SERVER_PATH, startHttpServer } from '../targets.js';
import { cells, interleave, type Samples } from './interleave.js';

const COLD = fileURLToPath(new URL('../cold/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** Row labels the targets read. */
export const COLD_ROWS = {
  httpExit: 'cold start HTTP, launch to exit',
  httpFirst: 'cold start HTTP, launch to first result',
  stdioExit: 'cold start stdio, launch to exit',
  stdioFirst: 'cold start stdio, launch to first result',
  cliHttpExit: 'cold start CLI `call` HTTP, launch to exit',
  cliHttpFirst: 'cold start CLI `call` HTTP, launch to first result',
  cliStdioExit: 'cold start CLI `call` stdio, launch to exit',
  cliStdioFirst: 'cold start CLI `call` stdio, launch to first result',
} as const;

type Program = 'raw' | 'autos-mcp' | 'sdk-v2' | 'cli';

/** The argv of one program for one target (`url`, or undefined for the stdio bench server). */
function argv(program: Program, url: string | undefined): string[] {
  const server = url === undefined ? [process.execPath, SERVER_PATH] : [url];
  switch (program) {
    case 'raw':
      return [`${COLD}${url === undefined ? 'raw-stdio.mjs' : 'raw-http.mjs'}`, ...server];
    case 'autos-mcp':
      return [`${COLD}autos.mjs`, ...server];
    case 'sdk-v2':
      return [`${COLD}sdk-v2.mjs`, ...server];
    case 'cli':
      return [
        BIN,
        'call',
        '--protocol',
        '2025-11-25',
        'echo',
        '{"text":"cold"}',
        ...(url === undefined ? ['--', ...server] : server),
      ];
  }
}

/** Runs one fresh process; resolves [launch → first stdout bytes, launch → exit] in ms. */
function sample(args: string[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    // A small environment: the harness runs under tsx, and a child inheriting loader settings starts slower.
    const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let first: number | undefined;
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      first ??= Number(process.hrtime.bigint() - t0) / 1e6;
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const exit = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0 || first === undefined || !out.includes('cold')) {
        reject(new Error(`cold start: ${args.join(' ')} exited with ${code}: ${(err || out).slice(0, 400)}`));
        return;
      }
      resolve([first, exit]);
    });
  });
}

/** Samples of `programs` renamed for one row (the CLI sits in the autos-mcp column), one measure picked. */
function pick(samples: Samples, programs: Record<string, Program>, measure: 0 | 1): Samples {
  const out: Samples = new Map();
  for (const [column, program] of Object.entries(programs)) {
    const rounds = samples.get(program);
    if (rounds !== undefined)
      out.set(
        column,
        rounds.map((r) => [r[measure] ?? Number.NaN]),
      );
  }
  return out;
}

function row(label: string, samples: Samples): Row {
  return { label, unit: 'ms', lowerIsBetter: true, chart: true, cells: cells(samples, median) };
}

/** Runs the cold-start group; `withAutos` false leaves out the library and CLI (dist/ missing). */
export async function runColdStart(options: {
  rounds: number;
  withAutos: boolean;
  log: (line: string) => void;
}): Promise<Section> {
  const programs: Program[] = options.withAutos ? ['raw', 'autos-mcp', 'sdk-v2', 'cli'] : ['raw', 'sdk-v2'];
  const library = { raw: 'raw', 'autos-mcp': 'autos-mcp', 'sdk-v2': 'sdk-v2' } as const;
  const cli = { raw: 'raw', 'autos-mcp': 'cli' } as const;
  const rows: Row[] = [];
  const measure = (url: string | undefined) =>
    interleave(programs, options.rounds, (program) => sample(argv(program as Program, url)));

  const stdio = await measure(undefined);
  rows.push(
    row(COLD_ROWS.stdioFirst, pick(stdio, library, 0)),
    row(COLD_ROWS.stdioExit, pick(stdio, library, 1)),
  );
  options.log('cold start stdio');
  const server = await startHttpServer(false);
  try {
    const http = await measure(server.url);
    rows.push(
      row(COLD_ROWS.httpFirst, pick(http, library, 0)),
      row(COLD_ROWS.httpExit, pick(http, library, 1)),
    );
    if (options.withAutos) {
      rows.push(
        row(COLD_ROWS.cliStdioFirst, pick(stdio, cli, 0)),
        row(COLD_ROWS.cliStdioExit, pick(stdio, cli, 1)),
        row(COLD_ROWS.cliHttpFirst, pick(http, cli, 0)),
        row(COLD_ROWS.cliHttpExit, pick(http, cli, 1)),
      );
    }
    options.log('cold start HTTP');
  } finally {
    await server.stop();
  }
  return {
    id: 'cold-start',
    title: 'Cold start',
    description:
      `A fresh \`node\` process per sample (${options.rounds} rounds, interleaved, median) that makes one \`echo\` call ` +
      '(2025-11-25: initialize, then tools/call) and exits by itself, timed from the spawn to its first line on stdout ' +
      'and to its exit. `raw` is a plain script (`bench/cold/raw-http.mjs` on node:http, `raw-stdio.mjs` over the pipe); ' +
      'autos-mcp is `dist/` (library rows) or `node dist/bin.js call` (CLI rows, which also list the tools before the ' +
      'call); the stdio server is `bench/server.mjs`, spawned by each process.',
    rows,
  };
}
