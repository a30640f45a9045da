/**
 * `autos-mcp run` through `main(argv, io)` over a temporary config file with two real servers (the demo
 * server and server-memory): code that uses both, `--json` printing exactly the run's result, a result cut
 * to `--max-chars` inside the run, `--allow` refusing a call, the code read from stdin, TypeScript, a
 * thrown error as exit 3, and usage errors.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { demo, MEMORY } from '../catalog/helpers.js';
import { type Dirs, dirs } from '../servers/helpers.js';
import { runMain } from './in-process.js';

let d: Dirs;
let config: string;
beforeEach(async () => {
  d = dirs();
  config = d.write(
    d.proj,
    'servers.json',
    JSON.stringify({
      mcpServers: { demo: await demo(), memory: MEMORY(path.join(d.proj, 'memory.jsonl')) },
    }),
  );
});
afterEach(() => d.cleanup());

async function cli(args: string[], input?: string) {
  const unset = Object.fromEntries(
    ['XDG_CONFIG_HOME', 'APPDATA', 'CODEX_HOME', 'AUTOS_MCP_TOKEN'].map((key) => [key, undefined]),
  );
  return runMain([...args, '--config', config, '--trust-project'], {
    cwd: d.proj,
    env: { ...unset, HOME: d.home },
    ...(input === undefined ? {} : { input }),
  });
}

function code(name: string, text: string): string {
  const file = path.join(d.proj, name);
  writeFileSync(file, text);
  return file;
}

test('code that uses two servers: --json prints exactly value, logs and calls', async () => {
  const file = code(
    'task.ts',
    `interface Echo { content: Array<{ type: string; text: string }> }
const said: Echo = await servers.demo.echo({ text: 'from the demo server' });
await mcp.call('memory.create_entities', { entities: [{ name: 'run', entityType: 'test', observations: [said.content[0].text] }] });
const graph = await servers.memory.read_graph({});
console.log('entities:', graph.structuredContent?.entities?.length ?? 'n/a');
return { said: said.content[0].text, stored: JSON.stringify(graph).includes('from the demo server') };`,
  );
  const run = await cli(['run', file, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as {
    value: unknown;
    logs: string[];
    calls: Array<{ ref: string; ok: boolean }>;
  };
  assert.deepEqual(Object.keys(result).sort(), ['calls', 'logs', 'value']);
  assert.deepEqual(result.value, { said: 'from the demo server', stored: true });
  assert.equal(result.logs.length, 1);
  assert.deepEqual(
    result.calls.map((c) => [c.ref, c.ok]),
    [
      ['demo.echo', true],
      ['memory.create_entities', true],
      ['memory.read_graph', true],
    ],
  );
});

test('--max-chars cuts a result inside the run: the code sees truncated and the file', async () => {
  const file = code(
    'big.js',
    `const r = await servers.demo.big({ chars: 100000 });
return { cut: r.truncated !== undefined, original: r.truncated?.originalChars, chars: JSON.stringify(r).length };`,
  );
  const run = await cli(['run', file, '--json', '--max-chars', '3000']);
  assert.equal(run.code, 0, run.stderr);
  const { value } = JSON.parse(run.stdout) as { value: { cut: boolean; original: number; chars: number } };
  assert.equal(value.cut, true);
  assert.ok(value.original > 100_000);
  assert.ok(value.chars <= 3000);
});

test('--allow refuses a call outside it (denied, not sent); a thrown error is exit 3', async () => {
  const file = code(
    'deny.js',
    `try { await servers.memory.read_graph({}); } catch (e) { console.log(e.kind, e.delivery); }
return await servers.demo.echo({ text: 'ok' }).then((r) => r.content[0].text);`,
  );
  const run = await cli(['run', file, '--json', '--allow', 'demo.*']);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { value: unknown; logs: string[] };
  assert.deepEqual(result.logs, ['denied not_sent']);
  assert.equal(result.value, 'ok');
  const thrown = await cli(['run', '-'], 'throw new Error("boom")');
  assert.equal(thrown.code, 3);
  assert.match(thrown.stderr, /run failed \(thrown\): .*boom/);
});

test('usage: no file, an unreadable file', async () => {
  assert.equal((await cli(['run'])).code, 2);
  const missing = await cli(['run', path.join(d.proj, 'nope.ts')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read the code/);
});
