// Cold import cost: fresh node processes, interleaved, `node -e "await import(X)"` minus a bare `node -e ""`.
// Each spawn is a cold module graph (no compile cache shared between runs beyond what node itself keeps).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Row, Section } from '../model.js';
import { median } from '../stats.js';
import { interleave } from './interleave.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

async function timeNode(code: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO, stdio: 'ignore' });
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  if (exitCode !== 0) throw new Error(`node -e ${JSON.stringify(code)} exited with ${exitCode}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Runs the import-time group. `modules` maps a client name to the specifier it is imported by. */
export async function runImportTime(options: {
  runs: number;
  modules: Record<string, string>;
  log: (line: string) => void;
}): Promise<Section> {
  const names = ['bare', ...Object.keys(options.modules)];
  const code = (name: string) =>
    name === 'bare' ? '' : `await import(${JSON.stringify(options.modules[name])})`;
  const samples = await interleave(names, options.runs, async (name) => [await timeNode(code(name))]);
  const runsOf = (name: string) => {
    const runs = samples.get(name);
    if (runs === undefined) throw new Error(`import time: no samples for ${name}`);
    return runs.flat();
  };
  const bare = median(runsOf('bare'));
  const cost = (name: string) => median(runsOf(name)) - bare;
  const sdk = samples.has('sdk-v2') ? cost('sdk-v2') : undefined;
  const row: Row = {
    label: 'cold import (over bare node start)',
    unit: 'ms',
    lowerIsBetter: true,
    cells: {},
  };
  const start: Row = { label: 'bare `node -e ""` start', unit: 'ms', lowerIsBetter: true, cells: {} };
  start.cells['raw'] = { value: bare };
  for (const name of Object.keys(options.modules)) {
    const value = cost(name);
    row.cells[name] = sdk === undefined ? { value } : { value, ratioVsSdkV2: value / sdk };
  }
  options.log(`import time: bare ${bare.toFixed(1)} ms`);
  return {
    id: 'import',
    title: 'Cold import time',
    description:
      `Fresh \`node\` processes, ${options.runs} runs each, interleaved; import cost = median(\`node -e "await import(X)"\`) ` +
      '− median(`node -e ""`). The raw column holds the bare start itself.',
    rows: [start, row],
  };
}
