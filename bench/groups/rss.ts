// Client memory after N and 10·N calls, each client alone in a child process (bench/rss-child.ts).
// Growth between the two readings is the leak signal; the absolute RSS includes node and the tsx loader.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchClient, Revision } from '../clients/types.js';
import type { Row, Section } from '../model.js';
import { stdioTarget } from '../targets.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../rss-child.ts', import.meta.url));

type Reading = { rssFirst: number; rssTotal: number; heapFirst: number; heapTotal: number };

/** Runs the RSS group at one revision for the given clients. */
export async function runRss(
  clients: readonly BenchClient[],
  options: { first: number; total: number; revision: Revision; log: (line: string) => void },
): Promise<Section> {
  const { first, total, revision } = options;
  const rows: [Row, Row, Row, Row] = [
    { label: `RSS after ${first} calls`, unit: 'MB', lowerIsBetter: true, cells: {} },
    { label: `RSS after ${total} calls`, unit: 'MB', lowerIsBetter: true, cells: {} },
    { label: `RSS growth ${first}→${total}`, unit: '%', lowerIsBetter: true, cells: {} },
    { label: `heap used after ${total} calls`, unit: 'MB', lowerIsBetter: true, cells: {} },
  ];
  for (const client of clients) {
    if (!client.supports(stdioTarget(revision))) continue;
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', CHILD, client.name, revision, String(first), String(total)],
      { maxBuffer: 1 << 20 },
    );
    const last = stdout.trim().split('\n').at(-1);
    if (!last) throw new Error(`rss child for ${client.name} printed no reading`);
    const r = JSON.parse(last) as Reading;
    rows[0].cells[client.name] = { value: r.rssFirst / 1e6 };
    rows[1].cells[client.name] = { value: r.rssTotal / 1e6 };
    rows[2].cells[client.name] = { value: ((r.rssTotal - r.rssFirst) / r.rssFirst) * 100 };
    rows[3].cells[client.name] = { value: r.heapTotal / 1e6 };
    options.log(`rss ${client.name}`);
  }
  for (const row of rows.filter((r) => r.unit === 'MB')) {
    const rawV = row.cells['raw']?.value;
    const sdk = row.cells['sdk-v2']?.value;
    for (const cell of Object.values(row.cells)) {
      if (cell === undefined) continue;
      if (rawV) cell.ratioVsRaw = cell.value / rawV;
      if (sdk) cell.ratioVsSdkV2 = cell.value / sdk;
    }
  }
  return {
    id: 'rss',
    title: 'Client memory',
    description:
      `Each client alone in a child process (node --expose-gc, tsx loader) over stdio at ${revision}: ` +
      `\`echo\` calls, memory read after two forced GCs at ${first} and ${total} calls.`,
    rows,
  };
}
