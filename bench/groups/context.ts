// Context saved by code mode (issue 27), on the task of bench/context-task.md over three real servers (the
// 139-tool large-catalog fixture, server-memory, server-filesystem; server-everything configured but unused).
// Both ways run for real through the built `dist/catalog.js` and `dist/code.js`, each on fresh servers and
// fresh folders, and both must reach the expected answer. Counted, in characters of JSON a model reads:
// - baseline: every tool definition of every server (each turn, and also once only, the lenient count), every
//   argument the model writes, every result whole as the server sent it;
// - code mode: the search results (5 queries, descriptions, limit 5), the describe of the 6 tools used, the
//   source of the one run, and the run's result (value, logs, calls).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Row, Section } from '../model.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CODE_DIST = new URL('../../dist/code.js', import.meta.url);
const CATALOG_DIST = new URL('../../dist/catalog.js', import.meta.url);

interface Config {
  command: string;
  args: string[];
  env?: Record<string, string>;
  maxMessageBytes?: number;
}
interface CatalogLike {
  list(): Promise<{ results: Array<{ ref: string }>; problems: unknown[] }>;
  search(query: string, options: { limit: number; detail: 'descriptions' }): Promise<unknown>;
  describe(ref: string): Promise<unknown>;
  call(ref: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<unknown>;
}
interface CatalogModule {
  catalog(servers: Record<string, Config>): CatalogLike;
}
interface CodeModule {
  runCode(
    source: string,
    options: { catalog: CatalogLike; timeoutMs: number },
  ): Promise<{ value?: unknown; error?: { message: string } }>;
}

export interface ContextBenchOptions {
  log: (line: string) => void;
  /** The modules to measure (default: the built `dist/catalog.js` and `dist/code.js`; a test passes the sources). */
  modules?: { catalog: string; code: string };
}

const node = (script: string, ...args: string[]): Config => ({
  command: process.execPath,
  args: [path.join(ROOT, script), ...args],
  maxMessageBytes: 64 * 2 ** 20,
});

function servers(dir: string): Record<string, Config> {
  const reports = path.join(dir, 'reports');
  mkdirSync(reports, { recursive: true });
  return {
    suite: node('test/fixtures/large-catalog-server.mjs'),
    memory: {
      ...node('node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
      env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
    },
    files: node('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', reports),
    everything: node('node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'),
  };
}

const chars = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

const EXPECTED_TICKETS = ['TCK-10001', 'TCK-10013', 'TCK-10016', 'TCK-10025', 'TCK-10037', 'TCK-10049'];
const QUERIES = ['customer', 'tickets', 'usage records', 'memory entity', 'write file'];
const USED = [
  'suite.search_customers',
  'suite.list_contacts',
  'suite.list_tickets',
  'suite.list_records',
  'memory.create_entities',
  'files.write_file',
];

function codeSource(reports: string): string {
  return `const REPORTS = ${JSON.stringify(reports)};
const [customer] = (await servers.suite.search_customers({ query: 'Acme Logistics' })).structuredContent.items;
const contacts = (await servers.suite.list_contacts({ customer_id: customer.id })).content[0].text;
const tickets = (await servers.suite.list_tickets({ customer_id: customer.id, status: 'open', priority: 'high' }))
  .structuredContent.items.map((t) => ({ id: t.id, subject: t.subject, assignee: t.assignee }));
const rows = (await servers.suite.list_records({ from: '2026-10-31', to: '2026-11-30' })).structuredContent.rows
  .filter((r) => r.customer_id === customer.id);
const facts = \`\${customer.name}: \${customer.tier}, ARR \${customer.arr_usd}, health \${customer.health_score}, renews \${customer.renewal_date}, owner \${customer.account_owner}\`;
await servers.memory.create_entities({ entities: [{ name: 'Acme Logistics escalation', entityType: 'brief',
  observations: [facts, ...tickets.map((t) => \`\${t.id} \${t.subject} (\${t.assignee})\`)] }] });
await servers.files.write_file({ path: REPORTS + '/acme-escalation.md', content: \`# \${facts}\\n\\n\${contacts}\\n\\n\` +
  tickets.map((t) => \`- \${t.id} \${t.subject} (\${t.assignee})\`).join('\\n') + \`\\n\\nUsage events (30 days): \${rows.length}\\n\` });
return { tickets: tickets.map((t) => t.id), usage: rows.length, events: [...new Set(rows.map((r) => r.event))] };
`;
}

/** Every definition of every server, as the JSON a model would be given. */
async function definitions(catalog: CatalogLike): Promise<number> {
  const listed = await catalog.list();
  assert.deepEqual(listed.problems, [], 'every server answers');
  let total = 0;
  for (const { ref } of listed.results) total += chars(await catalog.describe(ref));
  return total;
}

type Structured = { structuredContent: Record<string, unknown>; content: Array<{ text: string }> };

async function baseline(
  catalog: CatalogLike,
  reports: string,
): Promise<{ defs: number; io: number; turns: number }> {
  const defs = await definitions(catalog);
  let io = 0;
  const call = async (ref: string, args: Record<string, unknown>) => {
    const result = (await catalog.call(ref, args)) as Structured;
    io += chars(args) + chars(result);
    return result;
  };
  const found = await call('suite.search_customers', { query: 'Acme Logistics' });
  const customer = (found.structuredContent['items'] as Array<Record<string, string>>)[0];
  assert.ok(customer);
  const contacts = await call('suite.list_contacts', { customer_id: customer['id'] });
  const listed = await call('suite.list_tickets', {
    customer_id: customer['id'],
    status: 'open',
    priority: 'high',
  });
  const tickets = listed.structuredContent['items'] as Array<Record<string, string>>;
  const records = await call('suite.list_records', { from: '2026-10-31', to: '2026-11-30' });
  const usage = (records.structuredContent['rows'] as Array<Record<string, string>>).filter(
    (r) => r['customer_id'] === customer['id'],
  ).length;
  const facts = `${customer['name']}: ${customer['tier']}, owner ${customer['account_owner']}`;
  const lines = tickets.map((t) => `${t['id']} ${t['subject']} (${t['assignee']})`);
  await call('memory.create_entities', {
    entities: [{ name: 'Acme Logistics escalation', entityType: 'brief', observations: [facts, ...lines] }],
  });
  await call('files.write_file', {
    path: `${reports}/acme-escalation.md`,
    content: `# ${facts}\n\n${contacts.content[0]?.text ?? ''}\n\n${lines.join('\n')}\n\nUsage: ${usage}\n`,
  });
  assert.deepEqual(
    tickets.map((t) => t['id']),
    EXPECTED_TICKETS,
  );
  assert.equal(usage, 4);
  // The final answer is one more turn with every definition in context.
  return { defs, io, turns: 7 };
}

async function codeMode(
  catalog: CatalogLike,
  runCode: CodeModule['runCode'],
  reports: string,
): Promise<number> {
  let read = 0;
  for (const query of QUERIES)
    read += chars(await catalog.search(query, { limit: 5, detail: 'descriptions' }));
  for (const ref of USED) read += chars(await catalog.describe(ref));
  const source = codeSource(reports);
  read += source.length;
  const run = await runCode(source, { catalog, timeoutMs: 60_000 });
  assert.equal(run.error, undefined, run.error?.message);
  const value = run.value as { tickets: string[]; usage: number };
  assert.deepEqual(value.tickets, EXPECTED_TICKETS);
  assert.equal(value.usage, 4);
  assert.match(readFileSync(path.join(reports, 'acme-escalation.md'), 'utf8'), /TCK-10049/);
  return read + chars(run);
}

const bytesRow = (label: string, value: number): Row => ({
  label,
  unit: 'chars',
  lowerIsBetter: true,
  cells: { 'autos-mcp': { value } },
});

export async function runContext(options: ContextBenchOptions): Promise<Section> {
  const modules = options.modules ?? { catalog: CATALOG_DIST.href, code: CODE_DIST.href };
  const [{ catalog }, { runCode }] = (await Promise.all([import(modules.catalog), import(modules.code)])) as [
    CatalogModule,
    CodeModule,
  ];
  const dirs = [
    mkdtempSync(path.join(tmpdir(), 'autos-context-a-')),
    mkdtempSync(path.join(tmpdir(), 'autos-context-b-')),
  ];
  try {
    const [first, second] = dirs as [string, string];
    const one = catalog(servers(first));
    let base: { defs: number; io: number; turns: number };
    try {
      base = await baseline(one, path.join(first, 'reports'));
    } finally {
      await one.close();
    }
    const two = catalog(servers(second));
    let code: number;
    try {
      code = await codeMode(two, runCode, path.join(second, 'reports'));
    } finally {
      await two.close();
    }
    const perTurn = base.defs * base.turns + base.io;
    const once = base.defs + base.io;
    const saved = (total: number) => 100 * (1 - code / total);
    options.log(
      `context: baseline ${perTurn} chars (definitions each turn), ${once} (definitions once); code mode ${code}: ${saved(perTurn).toFixed(1)} % / ${saved(once).toFixed(1)} % less`,
    );
    return {
      id: 'context',
      title: 'Context saved by code mode',
      description:
        'The task of bench/context-task.md (a brief over the 139-tool suite fixture, server-memory and server-filesystem; server-everything configured, unused), run for real both ways. Characters of JSON a model reads. Baseline: every definition of every server (each turn, or once), every argument, every result whole. Code mode: 5 searches, 6 describes, the source of one run, its result. Target: at least 90 % less.',
      rows: [
        bytesRow('baseline: definitions each turn (7 turns) + arguments + results', perTurn),
        bytesRow('baseline: definitions once + arguments + results', once),
        bytesRow('code mode: searches + describes + source + run result', code),
        {
          label: 'saved against definitions once (the lenient baseline)',
          unit: '%',
          lowerIsBetter: false,
          cells: { 'autos-mcp': { value: Number(saved(once).toFixed(1)) } },
        },
        {
          label: 'saved against definitions each turn',
          unit: '%',
          lowerIsBetter: false,
          cells: { 'autos-mcp': { value: Number(saved(perTurn).toFixed(1)) } },
        },
      ],
    };
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
