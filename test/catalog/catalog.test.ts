/**
 * The catalog over real servers (the demo server, server-everything, server-memory): one ranked search
 * across them, the detail levels, `describe` with the digest the client computes, `call` routed by ref
 * (an `isError` result returned as a result), errors for refs that name nothing with suggestions, nothing
 * started before first use, every server ended by `close()`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Catalog, catalog } from '../../src/catalog/index.js';
import { toolDigest } from '../../src/client/index.js';
import { demo, EVERYTHING, MEMORY, rejection, scratch } from './helpers.js';

describe('a catalog of three real servers', () => {
  const dirs = scratch();
  let servers: Catalog;
  before(async () => {
    servers = catalog({
      demo: await demo(),
      everything: EVERYTHING,
      memory: MEMORY(path.join(dirs.dir, 'memory.jsonl')),
    });
  });
  after(async () => {
    const reports = await servers.close();
    for (const name of ['demo', 'everything', 'memory'])
      assert.equal(reports[name]?.process?.activeProcesses, 0, `${name} is ended with its whole tree`);
    dirs.cleanup();
  });

  test('nothing starts before first use; servers names every server', () => {
    assert.deepEqual(servers.servers, ['demo', 'everything', 'memory']);
    assert.deepEqual(servers.problems(), []);
  });

  test('search ranks the tools of every server by what they do, with refs, and no schema by default', async () => {
    const graph = await servers.search('create entities in the knowledge graph', { limit: 3 });
    assert.deepEqual(graph.problems, []);
    assert.equal(graph.results[0]?.ref, 'memory.create_entities');
    const hit = graph.results[0];
    assert.equal(hit?.server, 'memory');
    assert.equal(hit?.tool, 'create_entities');
    assert.match(hit?.description ?? '', /knowledge graph/);
    assert.equal(hit?.inputSchema, undefined);
    const echo = await servers.search('echo', { detail: 'names' });
    assert.deepEqual(echo.results.map((r) => r.ref).sort(), ['demo.echo', 'everything.echo']);
    assert.deepEqual(Object.keys(echo.results[0] ?? {}).sort(), ['ref', 'score', 'server', 'tool']);
    const failing = await servers.search('tool error result', { limit: 1 });
    assert.equal(failing.results[0]?.ref, 'demo.fail');
  });

  test('detail full adds the schemas and annotations; servers narrows the search', async () => {
    const full = await servers.search('echo', { detail: 'full', servers: ['everything'] });
    assert.deepEqual(
      full.results.map((r) => r.ref),
      ['everything.echo'],
    );
    assert.equal(full.results[0]?.inputSchema?.type, 'object');
    assert.equal(full.results[0]?.annotations?.['readOnlyHint'], true);
    assert.equal((await rejection(servers.search('echo', { servers: ['nope'] }))).kind, 'invalid_tool');
  });

  test('search is deterministic: the same query gives the same hits and scores', async () => {
    const first = await servers.search('read a file resource', { limit: 20, detail: 'names' });
    const second = await servers.search('read a file resource', { limit: 20, detail: 'names' });
    assert.deepEqual(second, first);
    for (let i = 1; i < first.results.length; i++) {
      const [a, b] = [first.results[i - 1], first.results[i]];
      assert.ok(
        a && b && (a.score > b.score || (a.score === b.score && a.ref < b.ref)),
        'ranked, ties by ref',
      );
    }
  });

  test('list gives every tool of every server, by ref', async () => {
    const all = await servers.list();
    const refs = all.results.map((r) => r.ref);
    assert.deepEqual(refs, [...refs].sort());
    for (const ref of ['demo.echo', 'demo.fail', 'everything.get-sum', 'memory.read_graph'])
      assert.ok(refs.includes(ref), ref);
    assert.ok(all.results.every((r) => r.score === 0 && r.description === undefined));
  });

  test('describe gives the whole definition with the digest the client computes', async () => {
    const echo = await servers.describe('everything.echo');
    assert.equal(echo.ref, 'everything.echo');
    assert.equal(echo.inputSchema.type, 'object');
    const { ref: _ref, server: _server, tool, digest, ...definition } = echo;
    assert.equal(digest, toolDigest({ name: tool, ...definition }).digest);
    assert.match(digest, /^sha256:[0-9a-f]{64}$/);
  });

  test('call routes the ref to its server; an isError result is a result', async () => {
    const echoed = await servers.call('demo.echo', { text: 'hello' }, { maxResultChars: 1_000 });
    assert.deepEqual(echoed.content, [{ type: 'text', text: 'hello' }]);
    const sum = await servers.call('everything.get-sum', { a: 2, b: 3 });
    assert.match(JSON.stringify(sum.content), /5/);
    const failed = await servers.call('demo.fail', { reason: 'no' });
    assert.equal(failed.isError, true);
  });

  test('a ref that names nothing is invalid_tool, not_sent, with what to try instead', async () => {
    const typo = await rejection(servers.describe('everything.ecko'));
    assert.equal(typo.kind, 'invalid_tool');
    assert.equal(typo.delivery, 'not_sent');
    assert.match(typo.message, /did you mean: echo\?/);
    const server = await rejection(servers.describe('evrything.echo'));
    assert.match(server.message, /no server "evrything": did you mean everything\?/);
    const bare = await rejection(servers.describe('echo'));
    assert.match(
      bare.message,
      /not a tool ref: a ref is server\.tool: did you mean demo\.echo, everything\.echo\?/,
    );
    const elsewhere = await rejection(servers.describe('memory.echo'));
    assert.match(elsewhere.message, /a tool of that name is on: demo\.echo, everything\.echo/);
    const call = await rejection(servers.call('nowhere.echo'));
    assert.equal(call.kind, 'invalid_tool');
    assert.equal(call.delivery, 'not_sent');
  });

  test('bad search options are config errors', async () => {
    for (const options of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { detail: 'all' as 'full' }])
      assert.equal(
        (await rejection(servers.search('echo', options))).kind,
        'config',
        JSON.stringify(options),
      );
  });
});

test('a catalog that was never used starts nothing and closes with no reports', async () => {
  const dirs = scratch();
  const servers = catalog({ counted: dirs.counted });
  assert.deepEqual(await servers.close(), { counted: undefined });
  assert.equal(dirs.starts(), 0);
  assert.equal((await rejection(servers.search('x'))).kind, 'closed');
  dirs.cleanup();
});
