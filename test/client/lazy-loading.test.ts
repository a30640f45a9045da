/**
 * What a fresh process loads is part of its cold start (docs/performance.md): a process that only speaks
 * HTTP loads neither the process-spawning code nor node:crypto, and a tool listing leaves the digests (and
 * node:crypto) to the first read. Each case runs the built package in a fresh `node`, which reports
 * Node's own list of the built-in modules it loaded.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { type HttpServer, startHttpServer } from '../../bench/targets.js';
import { builtBin } from '../helpers/built-package.js';

const run = promisify(execFile);

/** Connects to argv[2] (a URL, or `stdio`: the demo server), lists, calls echo, then reads one digest. */
const SCRIPT = `
const [dist, where] = process.argv.slice(1);
const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name);
const { connect } = await import(dist + '/index.js');
const client = await connect(
  where === 'stdio' ? { command: process.execPath, args: [dist + '/bin.js', 'demo-server'] } : { url: where },
);
const list = await client.listToolsDetailed();
const result = await client.callTool('echo', { text: 'lazy' });
const before = ['crypto', 'child_process', 'worker_threads', 'dgram'].filter(loaded);
const digest = list.digests.echo.digest;
const listDigest = list.listDigest;
const afterRead = loaded('crypto');
await client.close();
console.log(JSON.stringify({ before, afterRead, digest, listDigest, text: result.content[0].text }));
`;

async function probe(where: string) {
  const dist = path.dirname(await builtBin());
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT, dist, where]);
  return JSON.parse(stdout) as {
    before: string[];
    afterRead: boolean;
    digest: string;
    listDigest: string;
    text: string;
  };
}

let server: HttpServer;
before(async () => {
  server = await startHttpServer(false);
});
after(() => server.stop());

test('over HTTP: no process-spawning module and no node:crypto until a digest is read', async () => {
  const seen = await probe(server.url);
  assert.equal(seen.text, 'lazy');
  assert.deepEqual(seen.before, []);
  assert.equal(seen.afterRead, true, 'reading a digest computes it');
  assert.match(seen.digest, /^sha256:[0-9a-f]{64}$/);
  assert.match(seen.listDigest, /^sha256:[0-9a-f]{64}$/);
});

test('over stdio: the listing and the call leave node:crypto unloaded; a digest read then is computed', async () => {
  const seen = await probe('stdio');
  assert.equal(seen.text, 'lazy');
  assert.equal(seen.before.includes('crypto'), false, `loaded: ${seen.before.join(', ')}`);
  assert.equal(seen.before.includes('child_process'), true, 'stdio spawns the server');
  assert.equal(seen.afterRead, true);
  assert.match(seen.digest, /^sha256:[0-9a-f]{64}$/);
});

test('the CLI `call` does not load node:crypto (it lists to check the name, not to digest)', async () => {
  const bin = await builtBin();
  const report = `data:text/javascript,process.on('exit',()=>process.stderr.write('CRYPTO='+process.moduleLoadList.includes('NativeModule crypto')))`;
  const { stdout, stderr } = await run(process.execPath, [
    '--import',
    report,
    bin,
    'call',
    'echo',
    'text=hi',
    server.url,
  ]);
  assert.equal(stdout.trim(), 'hi');
  assert.match(stderr, /CRYPTO=false/);
});
