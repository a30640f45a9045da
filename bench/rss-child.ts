// Child process for the RSS group: connects one client to the stdio bench server, makes `first` calls, reads
// memory, makes calls up to `total`, reads memory again, and prints one JSON line. Isolated per client so one
// library's heap never shows up in another's figures. Usage: rss-child.ts <client> <revision> <first> <total>
import { autos } from './clients/autos.js';
import { raw } from './clients/raw.js';
import { sdkV1 } from './clients/sdk-v1.js';
import { sdkV2 } from './clients/sdk-v2.js';
import type { BenchClient, Revision } from './clients/types.js';
import { stdioTarget } from './targets.js';

const CLIENTS: Record<string, BenchClient> = { raw, 'sdk-v2': sdkV2, 'sdk-v1': sdkV1, 'autos-mcp': autos };
const [name = '', revision = '2025-11-25', first = '1000', total = '10000'] = process.argv.slice(2);
const client = CLIENTS[name];
if (client === undefined) throw new Error(`unknown client ${name}`);

const settle = () => {
  // --expose-gc is passed by the parent: collect twice so the figure is live memory, not pending garbage.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage();
};

const conn = await client.connect(stdioTarget(revision as Revision));
let done = 0;
const callsUntil = async (n: number) => {
  for (; done < n; done++) await conn.call('echo', { text: `call ${done}` });
};
await callsUntil(Number(first));
const atFirst = settle();
await callsUntil(Number(total));
const atTotal = settle();
await conn.close();
process.stdout.write(
  `${JSON.stringify({ rssFirst: atFirst.rss, rssTotal: atTotal.rss, heapFirst: atFirst.heapUsed, heapTotal: atTotal.heapUsed })}\n`,
);
