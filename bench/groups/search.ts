// Search latency of `autos-mcp/catalog` (built `dist/catalog.js`): 1,000 and 10,000 synthetic tools spread
// over stdio servers (bench/catalog-server.mjs, 200 and 1,000 tools each), listed once, then `rounds` × the
// query set searched (limit 10, descriptions). Reported: the first search (start, list and index every
// server), and p50/p95 of a search once listed (the target: under 5 ms at 10,000 tools).
import { fileURLToPath } from 'node:url';
import type { Row, Section } from '../model.js';
import { quantile } from '../stats.js';

export interface SearchBenchOptions {
  rounds: number;
  log: (line: string) => void;
}

/** The built entry this group loads. */
export const CATALOG_DIST = new URL('../../dist/catalog.js', import.meta.url);
const SERVER = fileURLToPath(new URL('../catalog-server.mjs', import.meta.url));

interface CatalogModule {
  catalog(servers: Record<string, { command: string; args: string[]; maxMessageBytes: number }>): {
    search(query: string, options: { limit: number }): Promise<{ results: unknown[]; problems: unknown[] }>;
    close(): Promise<unknown>;
  };
}

const QUERIES = [
  'list open issues of a repository',
  'send a message to a channel',
  'create invoice for customer',
  'delete file',
  'search email',
  'recent deployment logs',
  'query database table rows',
  'update calendar event',
  'read document folder',
  'failed workflow jobs',
  'get user team',
  'alert metric',
  'commit comment label',
  'secret',
  'repositor',
];

const row = (label: string, value: number): Row => ({
  label,
  unit: 'ms',
  lowerIsBetter: true,
  cells: { 'autos-mcp': { value } },
});

export async function runSearch(options: SearchBenchOptions): Promise<Section> {
  const { catalog } = (await import(CATALOG_DIST.href)) as CatalogModule;
  const rows: Row[] = [];
  for (const { tools, servers } of [
    { tools: 1_000, servers: 5 },
    { tools: 10_000, servers: 10 },
  ]) {
    const configs = Object.fromEntries(
      Array.from({ length: servers }, (_, i) => [
        `s${i}`,
        {
          command: process.execPath,
          args: [SERVER, String(tools / servers), String(i + 1)],
          maxMessageBytes: 64 * 2 ** 20,
        },
      ]),
    );
    const servers_ = catalog(configs);
    try {
      const started = performance.now();
      const first = await servers_.search('warm up', { limit: 10 });
      const firstMs = performance.now() - started;
      if (first.problems.length > 0) throw new Error(`search bench: ${JSON.stringify(first.problems)}`);
      const times: number[] = [];
      for (let round = 0; round < options.rounds; round++)
        for (const query of QUERIES) {
          const t = performance.now();
          await servers_.search(query, { limit: 10 });
          times.push(performance.now() - t);
        }
      const label = `${tools.toLocaleString('en-US')} tools`;
      rows.push(row(`catalog search ${label}: first (start, list, index)`, firstMs));
      rows.push(row(`catalog search ${label}: p50`, quantile(times, 0.5)));
      rows.push(row(`catalog search ${label}: p95`, quantile(times, 0.95)));
      options.log(
        `search ${label}: first ${firstMs.toFixed(0)} ms, p50 ${quantile(times, 0.5).toFixed(3)} ms, p95 ${quantile(times, 0.95).toFixed(3)} ms`,
      );
    } finally {
      await servers_.close();
    }
  }
  return {
    id: 'search',
    title: 'Catalog search',
    description:
      'autos-mcp/catalog over synthetic stdio servers: the first search starts, lists and indexes every server; then each search of a set of 15 queries (limit 10, with descriptions) once the lists are held. Target: p95 under 5 ms at 10,000 tools.',
    rows,
  };
}
