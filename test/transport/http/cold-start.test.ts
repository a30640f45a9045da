/**
 * The default HTTP path needs no undici (node:http with a keep-alive Agent, node-pool.ts), so a fresh process
 * neither loads it nor compiles its llhttp WebAssembly; a proxy or a custom CA still gets undici. Checked in a
 * child process through the CommonJS module cache (undici is CommonJS, loaded with `require`). Also the pool
 * behaviours the rest of the suite does not reach: an abort or a close fails a request still queued behind
 * the socket cap at once, and a repeated response header comes as an array, as undici gives it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MAX_CONNECTIONS_PER_ORIGIN, needsUndici } from '../../../src/transport/http/create-pool.js';
import { NodePool } from '../../../src/transport/http/node-pool.js';
import { waitFor } from '../../helpers/wait.js';
import { json, options, rejection, result, serversClosedAfter } from './test-server.js';

const server = serversClosedAfter();
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** Runs `code` (ESM, with tsx) in a fresh node and returns its stdout. */
async function child(code: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    timeout: 30_000,
  });
  return stdout.trim();
}

const LOADED = `
import { createRequire } from 'node:module';
const undiciLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((p) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(p));
`;

describe('cold start: undici only where it is needed', () => {
  it('a call on the default path never loads undici; a proxy does', async () => {
    const s = await server((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const id = req.json?.['id'];
      if (id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const method = req.json?.['method'];
      const value =
        method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 't', version: '0' } }
          : { content: [{ type: 'text', text: 'cold' }] };
      json(res, 200, result(id, value));
    });
    const out = await child(`${LOADED}
const { connect } = await import('./src/index.ts');
const client = await connect({ url: ${JSON.stringify(s.url.href)}, protocolVersion: '2025-11-25' });
const answer = await client.callTool('echo', { text: 'cold' });
await client.close();
const before = undiciLoaded();
const { createPool } = await import('./src/transport/http/create-pool.ts');
const proxied = createPool({ url: new URL(${JSON.stringify(s.url.href)}), headers: {}, maxMessageBytes: 1024, proxy: 'http://127.0.0.1:9' });
await proxied.destroy();
console.log(JSON.stringify({ text: answer.content[0].text, before, after: undiciLoaded() }));
`);
    assert.deepEqual(JSON.parse(out), { text: 'cold', before: false, after: true });
  });

  it('undici serves a proxy, useEnvProxy and a custom CA; node:http everything else', () => {
    const base = options(new URL('https://example.com/mcp'));
    assert.equal(needsUndici(base), false);
    assert.equal(needsUndici({ ...base, ca: [] }), false);
    assert.equal(needsUndici({ ...base, ca: ['-----BEGIN CERTIFICATE-----'] }), true);
    assert.equal(needsUndici({ ...base, proxy: 'http://proxy.example:3128' }), true);
    assert.equal(needsUndici({ ...base, useEnvProxy: true }), true);
  });
});

describe('the node:http pool', () => {
  const post = (pool: NodePool, url: URL, signal?: AbortSignal) =>
    pool.request({ origin: url.origin, path: url.pathname, method: 'POST', headers: {}, body: '{}', signal });

  it('an abort or a close fails a request queued behind the socket cap at once', async () => {
    const held: (() => void)[] = [];
    const s = await server((_req, res) => {
      held.push(() => res.writeHead(200).end('{}'));
    });
    const pool = new NodePool(s.url, MAX_CONNECTIONS_PER_ORIGIN);
    const busy = Array.from({ length: MAX_CONNECTIONS_PER_ORIGIN }, () => post(pool, s.url));
    await waitFor(() => s.requests.length === MAX_CONNECTIONS_PER_ORIGIN, { what: 'the first requests' });
    const controller = new AbortController();
    const queued = post(pool, s.url, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    assert.equal(await rejection(queued), reason);
    const closed = post(pool, s.url);
    await pool.destroy();
    assert.match((await rejection(closed)).message, /closed/);
    for (const b of busy) await rejection(b);
    assert.match((await rejection(post(pool, s.url))).message, /closed/);
    assert.equal(s.requests.length, MAX_CONNECTIONS_PER_ORIGIN, 'the failed requests were never sent');
    for (const answer of held) answer();
  });

  it('an abort while the body is read breaks the body', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const pool = new NodePool(s.url, MAX_CONNECTIONS_PER_ORIGIN);
    const controller = new AbortController();
    const response = await post(pool, s.url, controller.signal);
    const broken = new Promise((resolve) => response.body.once('error', resolve));
    controller.abort();
    assert.equal(((await broken) as Error).name, 'AbortError');
    await pool.destroy();
  });

  it('headers come lowercased, a repeated one as an array, the body with its content-length', async () => {
    const s = await server((_req, res) => {
      res.setHeader('WWW-Authenticate', ['Bearer realm="a"', 'Basic realm="b"']);
      res.setHeader('Content-Type', 'application/json');
      res.writeHead(200).end('{"ok":true}');
    });
    const pool = new NodePool(s.url, MAX_CONNECTIONS_PER_ORIGIN);
    const response = await post(pool, s.url);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.deepEqual(response.headers['www-authenticate'], ['Bearer realm="a"', 'Basic realm="b"']);
    response.body.resume();
    assert.equal(s.requests[0]?.headers['content-length'], '2');
    await pool.destroy();
  });
});
