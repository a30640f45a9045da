/**
 * A keep-alive socket the server has closed for idleness, while this process was too busy to notice, is not
 * reused (transport/http/idle-sockets.ts): the request goes out on a new connection instead of failing with
 * ECONNRESET. The server runs in its own process, so it closes the socket on time while this one is blocked.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { hintedLimit } from '../../../src/transport/http/idle-sockets.js';
import { NodePool } from '../../../src/transport/http/node-pool.js';

/** A node:http server that closes idle connections after `idleMs` and answers with its connection count. */
const SERVER = `
const http = require('node:http');
const idleMs = Number(process.argv.at(-1));
let connections = 0;
const server = http.createServer((req, res) => {
  clearTimeout(req.socket.idle);
  req.resume();
  req.on('end', () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ connections })));
  // Its own idle close: Node's keepAliveTimeout would also send a Keep-Alive hint, which the client obeys.
  res.on('finish', () => { req.socket.idle = setTimeout(() => req.socket.destroy(), idleMs); });
});
server.keepAliveTimeout = 0;
server.on('connection', () => connections++);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill();
});

async function server(idleMs: number): Promise<URL> {
  const child = spawn(process.execPath, ['-e', SERVER, String(idleMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [chunk] = (await once(child.stdout ?? child, 'data')) as [Buffer];
  return new URL(`http://127.0.0.1:${chunk.toString().trim()}/mcp`);
}

async function post(pool: NodePool, url: URL): Promise<number> {
  const response = await pool.request({
    origin: url.origin,
    path: url.pathname,
    method: 'POST',
    headers: {},
    body: '{}',
  });
  let text = '';
  for await (const chunk of response.body) text += chunk;
  return (JSON.parse(text) as { connections: number }).connections;
}

/** Blocks this thread: no timer runs and no socket event is read meanwhile. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('idle keep-alive sockets', () => {
  it('a socket the server closed while this process was busy is not reused', async () => {
    const url = await server(150);
    const pool = new NodePool(url, 4, 100);
    try {
      assert.equal(await post(pool, url), 1);
      busy(600); // the server closes the idle socket at 150 ms; this process reads nothing until the next call
      assert.equal(await post(pool, url), 2, 'the second request went out on a new connection');
    } finally {
      await pool.destroy();
    }
  });

  it('without the limit the same request fails: the test reproduces the race', async () => {
    const url = await server(150);
    const pool = new NodePool(url, 4, 1e9);
    try {
      assert.equal(await post(pool, url), 1);
      busy(600);
      await assert.rejects(post(pool, url), { code: /ECONNRESET|EPIPE/ });
    } finally {
      await pool.destroy();
    }
  });

  it('a socket idle for less than the limit is reused', async () => {
    const url = await server(5_000);
    const pool = new NodePool(url, 4, 2_000);
    try {
      assert.equal(await post(pool, url), 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await post(pool, url), 1, 'one connection for both requests');
    } finally {
      await pool.destroy();
    }
  });
});

describe("the server's Keep-Alive hint", () => {
  it('lowers the limit to 2 s short of the hint, never raises it, and 0 when under 1 s would be left', () => {
    assert.equal(hintedLimit(undefined, 4_000), 4_000);
    assert.equal(hintedLimit('timeout=5', 4_000), 3_000);
    assert.equal(hintedLimit('max=100, timeout=5', 4_000), 3_000);
    assert.equal(hintedLimit(['timeout=5', 'timeout=60'], 4_000), 3_000);
    assert.equal(hintedLimit('timeout=75', 4_000), 4_000);
    assert.equal(hintedLimit('timeout=2', 4_000), 0);
    assert.equal(hintedLimit('timeout=0', 4_000), 0);
    assert.equal(hintedLimit('xtimeout=1', 4_000), 4_000, 'another parameter');
    assert.equal(hintedLimit(`timeout=${'9'.repeat(400)}`, 4_000), 4_000, 'an absurd number is ignored');
  });
});
