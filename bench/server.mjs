#!/usr/bin/env node
// Minimal hand-written MCP server for benchmarks (no SDK, so server cost is small and equal for every client).
// stdio (line JSON) by default; `--http <port>` serves Streamable HTTP on node:http (`--sse` answers as SSE;
// `--content-length` sends every answer with a Content-Length instead of Node's default chunked framing).
// Speaks 2025-11-25 (initialize, session id on HTTP) and 2026-07-28 (server/discover, `_meta`, resultType).
// Tools: `echo {text}` and `blob {bytes}` (a text block of that many bytes, for large-result runs);
// `--warm <bytes>` prebuilds one blob size.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO = { name: 'autos-mcp-bench', version: '1.0.0' };
const TOOLS = [
  {
    name: 'echo',
    description: 'Returns its text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'blob',
    description: 'Returns a text block of `bytes` bytes.',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] },
  },
];

/** Serialized blob results by size and era: building a 64 MiB JSON string once keeps server cost out of the runs. */
const blobCache = new Map();
function blobResultJson(bytes, modern) {
  const key = `${bytes}:${modern}`;
  let json = blobCache.get(key);
  if (json === undefined) {
    const result = { content: [{ type: 'text', text: 'x'.repeat(bytes) }] };
    if (modern) result.resultType = 'complete';
    json = JSON.stringify(result);
    blobCache.set(key, json);
  }
  return json;
}

const response = (id, resultJson) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;
const errorResponse = (id, code, message) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * Answers one request; returns the serialized response, or undefined for notifications.
 * Modern requests are recognised by the `_meta` protocol version claim (S26/basic/index).
 */
function handle(message) {
  const { id, method, params } = message;
  if (id === undefined) return undefined; // notifications (initialized, cancelled): no reply, S*/basic/index
  const modern = params?._meta?.[VERSION_KEY] !== undefined;
  const finish = (result) => {
    if (modern) {
      result.resultType = 'complete';
      result._meta = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
    }
    return response(id, JSON.stringify(result));
  };
  switch (method) {
    case 'initialize': {
      const asked = params?.protocolVersion;
      return finish({
        protocolVersion: asked === LEGACY || asked === '2025-06-18' ? asked : LEGACY,
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      });
    }
    case 'server/discover':
      return finish({
        supportedVersions: [MODERN],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'public',
      });
    case 'ping':
      return finish({});
    case 'tools/list':
      return finish({ tools: TOOLS });
    case 'tools/call': {
      const args = params?.arguments ?? {};
      if (params?.name === 'echo')
        return finish({ content: [{ type: 'text', text: String(args.text ?? '') }] });
      if (params?.name === 'blob') return response(id, blobResultJson(Number(args.bytes) || 0, modern));
      return errorResponse(id, -32602, `unknown tool ${params?.name}`);
    }
    default:
      return errorResponse(id, -32601, `method not found: ${method}`);
  }
}

/** stdio: one message per line (S25/basic/transports, S26/basic/transports/stdio); chunks are only joined when a line ends. */
function serveStdio() {
  let pending = [];
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      pending.push(chunk.subarray(start, nl));
      const line = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      if (line.length > 0) {
        const out = handle(JSON.parse(line.toString('utf8')));
        if (out !== undefined) process.stdout.write(`${out}\n`);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  process.stdin.on('end', () => process.exit(0));
}

function serveHttp(port, sse, sized) {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      // 2026 forbids GET/DELETE (405); a 2025 DELETE ends the session, which holds nothing here.
      res.writeHead(req.method === 'DELETE' && req.headers['mcp-session-id'] ? 200 : 405).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(errorResponse(null, -32700, 'parse error'));
        return;
      }
      const out = handle(message);
      if (out === undefined) return void res.writeHead(202).end(); // S*/basic/transports: notifications → 202
      const headers = {};
      if (message.method === 'initialize') headers['mcp-session-id'] = randomUUID();
      else if (req.headers['mcp-session-id']) headers['mcp-session-id'] = req.headers['mcp-session-id'];
      if (sse) {
        headers['content-type'] = 'text/event-stream';
        headers['cache-control'] = 'no-cache';
        const body = `event: message\ndata: ${out}\n\n`;
        if (sized) headers['content-length'] = Buffer.byteLength(body);
        res.writeHead(200, headers).end(body);
      } else {
        headers['content-type'] = 'application/json';
        if (sized) headers['content-length'] = Buffer.byteLength(out);
        res.writeHead(200, headers).end(out);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${server.address().port}/mcp\n`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const argv = process.argv.slice(2);
// `--warm <bytes>` builds that blob for both eras before serving, so timed calls never pay for building it.
const warmAt = argv.indexOf('--warm');
if (warmAt !== -1) for (const modern of [false, true]) blobResultJson(Number(argv[warmAt + 1]), modern);
const at = argv.indexOf('--http');
if (at === -1) serveStdio();
else serveHttp(Number(argv[at + 1] ?? 0), argv.includes('--sse'), argv.includes('--content-length'));
