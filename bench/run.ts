// Benchmark entry (`npm run bench` = build, then this). Runs the groups, prints the markdown tables, and writes
// docs/benchmarks.md, docs/benchmarks.svg and the generated block of docs/performance.md.
// Flags: --quick (small counts, CI smoke), --only <group>[,<group>] , --no-docs (print only).
// `--only worker --quick --no-docs` measures just the autos-mcp/worker row.
import { existsSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { AUTOS_DIST, autos, autosAvailable, autosUndici } from './clients/autos.js';
import { raw } from './clients/raw.js';
import { rawUndici } from './clients/raw-undici.js';
import { sdkV1 } from './clients/sdk-v1.js';
import { sdkV2 } from './clients/sdk-v2.js';
import type { BenchClient } from './clients/types.js';
import { runCode } from './groups/code.js';
import { runColdStart } from './groups/cold-start.js';
import { CODE_DIST, runContext } from './groups/context.js';
import { runFirstResult } from './groups/first-result.js';
import { runImportTime } from './groups/import-time.js';
import { runInstall } from './groups/install.js';
import { runLarge } from './groups/large.js';
import { runLatency } from './groups/latency.js';
import { runRss } from './groups/rss.js';
import { runRuntimes } from './groups/runtimes.js';
import { CATALOG_DIST, runSearch } from './groups/search.js';
import { runWorker } from './groups/worker.js';
import type { BenchReport, Section } from './model.js';
import { writeDocs } from './report/docs.js';
import { renderSvg } from './report/svg.js';
import { renderMarkdown } from './report/table.js';
import { assessTargets, renderTargets } from './report/targets.js';

const GROUPS = [
  'latency',
  'first-result',
  'cold-start',
  'large',
  'import',
  'install',
  'rss',
  'worker',
  'code',
  'runtimes',
  'search',
  'context',
] as const;
type Group = (typeof GROUPS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    'no-docs': { type: 'boolean', default: false },
  },
});
const quick = values.quick ?? false;
const only = (values.only ?? []).flatMap((o) => o.split(','));
for (const g of only)
  if (!(GROUPS as readonly string[]).includes(g))
    throw new Error(`unknown group ${g}; one of ${GROUPS.join(', ')}`);
// Install hits the npm cache and takes tens of seconds: quick runs skip it unless asked for by name.
const selected = (g: Group) => (only.length > 0 ? only.includes(g) : !(quick && g === 'install'));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const skipped: string[] = [];
const clients: BenchClient[] = [raw];
if (autosAvailable()) clients.push(autos);
else skipped.push(`autos-mcp: ${AUTOS_DIST.pathname} is missing (run \`npm run build\`)`);
clients.push(sdkV2, sdkV1);
// The second HTTP floor, and autos-mcp on an undici Pool, run in the latency group only (HTTP, per call).
const latencyOnly = autosAvailable() ? [rawUndici, autosUndici] : [rawUndici];
const names = [...clients.map((c) => c.name), ...latencyOnly.map((c) => c.name)];

const started = Date.now();
const sections: Section[] = [];
if (selected('latency')) {
  sections.push(
    await runLatency([...clients, ...latencyOnly], {
      rounds: quick ? 3 : 10,
      stdioCalls: quick ? 50 : 400,
      httpCalls: quick ? 30 : 150,
      warmup: quick ? 10 : 100,
      log,
    }),
  );
}
if (selected('first-result')) sections.push(await runFirstResult(clients, { rounds: quick ? 2 : 12, log }));
if (selected('cold-start')) {
  sections.push(await runColdStart({ rounds: quick ? 3 : 20, withAutos: autosAvailable(), log }));
}
if (selected('large')) {
  const sizes = quick
    ? [{ mib: 8, rounds: 1, http: false }]
    : [
        { mib: 8, rounds: 5, http: true },
        { mib: 64, rounds: 2, http: true },
      ];
  sections.push(await runLarge(clients, { sizes, capMs: quick ? 20_000 : 30_000, log }));
}
if (selected('import')) {
  const modules: Record<string, string> = {};
  if (autosAvailable()) modules['autos-mcp'] = AUTOS_DIST.href;
  modules['sdk-v2'] = '@modelcontextprotocol/client';
  modules['sdk-v1'] = '@modelcontextprotocol/sdk/client/index.js';
  sections.push(await runImportTime({ runs: quick ? 3 : 30, modules, log }));
}
if (selected('install')) sections.push(await runInstall({ includeAutos: autosAvailable(), log }));
if (selected('rss')) {
  sections.push(
    await runRss(clients, {
      first: quick ? 100 : 1000,
      total: quick ? 1000 : 10000,
      revision: '2025-11-25',
      log,
    }),
  );
}

if (selected('worker')) {
  if (autosAvailable()) {
    sections.push(
      await runWorker(AUTOS_DIST.href, {
        rounds: quick ? 3 : 10,
        calls: quick ? 200 : 1000,
        warmup: quick ? 50 : 200,
        revision: '2025-11-25',
        log,
      }),
    );
  } else skipped.push('worker: dist/index.js is missing (run `npm run build`)');
}
if (selected('code')) {
  if (autosAvailable()) {
    sections.push(
      await runCode(AUTOS_DIST.href, new URL('code.js', AUTOS_DIST).href, {
        rounds: quick ? 3 : 10,
        calls: quick ? 100 : 500,
        coldRuns: quick ? 3 : 10,
        revision: '2025-11-25',
        log,
      }),
    );
  } else skipped.push('code: dist/index.js is missing (run `npm run build`)');
}
if (selected('runtimes')) {
  if (autosAvailable()) {
    sections.push(
      await runRuntimes({
        rounds: quick ? 3 : 10,
        callRounds: quick ? 1 : 3,
        calls: quick ? 100 : 300,
        warmup: quick ? 20 : 100,
        log,
      }),
    );
  } else skipped.push('runtimes: dist/index.js is missing (run `npm run build`)');
}

if (selected('search')) {
  if (existsSync(CATALOG_DIST)) sections.push(await runSearch({ rounds: quick ? 5 : 40, log }));
  else skipped.push('search: dist/catalog.js is missing (run `npm run build`)');
}
if (selected('context')) {
  if (existsSync(CODE_DIST) && existsSync(CATALOG_DIST)) sections.push(await runContext({ log }));
  else skipped.push('context: dist/code.js or dist/catalog.js is missing (run `npm run build`)');
}

const cpu = cpus();
const report: BenchReport = {
  startedAt: new Date(started).toISOString(),
  durationMs: Date.now() - started,
  command: ['npm run bench', ...process.argv.slice(2)].join(' ').replace('bench --', 'bench -- --'),
  quick,
  machine: {
    os: `${platform()} ${release()}`,
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    cores: cpu.length,
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
  },
  clients: names,
  sections,
  skipped,
};
const markdown = renderMarkdown(report);
const verdicts = assessTargets(report);
process.stdout.write(`${markdown}\n## Targets\n\n${renderTargets(verdicts)}\n`);
if (!values['no-docs']) {
  await writeDocs(report, markdown, renderSvg(report), verdicts);
  log('wrote docs/benchmarks.md, docs/benchmarks.svg, docs/performance.md');
}
