/**
 * runCode against real servers: the demo server (autos-mcp's own, over stdio) and
 * @modelcontextprotocol/server-memory, each behind a real `Client`, mapped into one catalog by refs
 * `demo.<tool>` and `memory.<tool>`. Code calls both, searches and describes, is TypeScript, gets an
 * `isError` result as a value, and sees a failed call's kind, delivery and hints.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { type CodeCatalog, runCode } from '../../src/code/index.js';
import { type Client, connect } from '../../src/index.js';
import { clientsCatalog } from './clients-catalog.js';

const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-code-'));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const memoryServer = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
let demo: Client;
let memory: Client;
let catalog: CodeCatalog;

before(async () => {
  [demo, memory] = await Promise.all([
    connect(demoServerCommand()),
    connect(
      {
        command: process.execPath,
        args: [memoryServer],
        env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
      },
      { validateArguments: true },
    ),
  ]);
  catalog = clientsCatalog({ demo, memory });
});
after(async () => {
  await Promise.all([demo?.close(), memory?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test('code calls two servers and returns only what it kept; each call is recorded delivered', async () => {
  const result = await runCode(
    `await servers.memory.create_entities({ entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
     const graph = await mcp.call('memory.read_graph', {});
     const names = graph.structuredContent.entities.map((e) => e.name);
     const echoed = await servers.demo.echo({ text: names.join(',') });
     console.log('entities:', names.length);
     return echoed.content[0].text;`,
    { catalog },
  );
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.equal(result.value, 'Ada');
  assert.deepEqual(result.logs, ['entities: 1']);
  assert.deepEqual(
    result.calls.map((c) => [c.ref, c.ok, c.delivery]),
    [
      ['memory.create_entities', true, 'delivered'],
      ['memory.read_graph', true, 'delivered'],
      ['demo.echo', true, 'delivered'],
    ],
  );
});

test('search and describe cross as data: refs found, a definition with its annotations', async () => {
  const result = await runCode(
    `const found = await mcp.search('echo', { limit: 5 });
     const read = await mcp.describe('memory.read_graph');
     return { refs: found.map((f) => f.ref), hints: read.annotations, schemaType: read.inputSchema.type };`,
    { catalog },
  );
  assert.deepEqual(result.value, {
    refs: ['demo.echo'],
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemaType: 'object',
  });
});

test('TypeScript source runs, its types stripped; a type error line is the line of the given source', async () => {
  const result = await runCode(
    `interface Echo { content: Array<{ type: string; text: string }> }
     const said = (await servers.demo.echo({ text: 'typed' })) as Echo;
     const upper: string = said.content[0].text.toUpperCase();
     return upper;`,
    { catalog },
  );
  assert.equal(result.value, 'TYPED');
  const broken = await runCode('const a: number = 1;\n\nconst b: = 2;', { catalog, language: 'ts' });
  assert.equal(broken.error?.kind, 'syntax');
  assert.equal(broken.error?.line, 3);
  const thrown = await runCode('const a: number = 1;\nconst o: any = null;\nreturn o.x;', { catalog });
  assert.deepEqual([thrown.error?.kind, thrown.error?.line], ['thrown', 3]);
});

test('an isError result is returned, not thrown; its record is ok with isError', async () => {
  const result = await runCode(
    "const r = await servers.demo.fail({ reason: 'disk full' }); return { isError: r.isError, text: r.content[0].text }",
    { catalog },
  );
  assert.deepEqual(result.value, { isError: true, text: 'disk full' });
  assert.deepEqual(result.calls, [
    { ref: 'demo.fail', ok: true, ms: result.calls[0]?.ms, delivery: 'delivered', isError: true },
  ]);
});

test('a failed call throws with kind, delivery, ref and the tool hints, so code can judge a retry', async () => {
  const result = await runCode(
    `const seen = [];
     for (const [ref, args] of [['memory.delete_entities', { entityNames: 'not a list' }], ['demo.no_such_tool', {}]]) {
       try { await mcp.call(ref, args) } catch (e) { seen.push({ name: e.name, kind: e.kind, delivery: e.delivery, ref: e.ref, hints: e.annotations ?? null }) }
     }
     return seen;`,
    { catalog },
  );
  assert.deepEqual(result.value, [
    {
      name: 'McpError',
      kind: 'invalid_arguments',
      delivery: 'not_sent',
      ref: 'memory.delete_entities',
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    // The server answered (a JSON-RPC error): delivered, so the request did reach it. No definition, no hints.
    { name: 'McpError', kind: 'rpc', delivery: 'delivered', ref: 'demo.no_such_tool', hints: null },
  ]);
});

test('the deadline aborts a real call in flight: the run ends timeout, the record says it had left', async () => {
  const result = await runCode('return await servers.demo.slow({ steps: 50, delayMs: 100 })', {
    catalog,
    timeoutMs: 400,
  });
  assert.equal(result.error?.kind, 'timeout');
  assert.equal(result.calls.length, 1);
  assert.equal(result.calls[0]?.ok, false);
  assert.equal(result.calls[0]?.delivery, 'unknown');
  // The client is still usable after the abort.
  assert.equal(
    (await runCode("return (await servers.demo.echo({ text: 'after' })).content[0].text", { catalog })).value,
    'after',
  );
});
