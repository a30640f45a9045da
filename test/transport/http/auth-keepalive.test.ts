/**
 * A 401's socket goes back to the keep-alive pool when the 401 arrives, not after the authorizer is done.
 * An OAuth login behind `refused()` can take longer than the server keeps an idle connection open; a socket
 * kept out of the pool meanwhile came back looking fresh, was reused, and the request sent once more failed
 * with ECONNRESET (seen on conformance runs under load). The server runs in its own process, says
 * `Keep-Alive: timeout=3` (so this client reuses a socket idle under 1 s) and closes idle connections after
 * 1.2 s; `refused()` blocks this process for 1.5 s, as a busy login would.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { connect } from '../../../src/index.js';
import type { Authorizer } from '../../../src/transport/index.js';

/** A 2025-11-25 MCP server over JSON that takes only `Bearer fresh`, and closes sockets idle 1.2 s. */
const SERVER = `
const http = require('node:http');
let connections = 0;
const server = http.createServer((req, res) => {
  clearTimeout(req.socket.idle);
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.on('finish', () => { req.socket.idle = setTimeout(() => req.socket.destroy(), 1200); });
    res.setHeader('keep-alive', 'timeout=3');
    if (req.headers.authorization !== 'Bearer fresh') {
      res.writeHead(401, { 'www-authenticate': 'Bearer scope="read"', 'content-type': 'text/plain' });
      return res.end('sign in first');
    }
    const message = body === '' ? {} : JSON.parse(body);
    if (message.id === undefined) return res.writeHead(202).end();
    const result = message.method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'k', version: '1' } }
      : { tools: [], connections };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});
server.keepAliveTimeout = 0;
server.on('connection', () => connections++);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill();
});

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('a 401 answered by a slow authorizer', () => {
  it('the request sent once more goes out on a live socket', async () => {
    const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const [chunk] = (await once(child.stdout ?? child, 'data')) as [Buffer];
    let token = 'Bearer old';
    const auth: Authorizer = {
      authorization: () => token,
      refused: () => {
        busy(1_500);
        token = 'Bearer fresh';
        return true;
      },
    };
    const client = await connect({ url: `http://127.0.0.1:${chunk.toString().trim()}/mcp` }, { auth });
    try {
      const tools = await client.listTools();
      assert.deepEqual(tools, []);
    } finally {
      await client.close();
    }
  });
});
