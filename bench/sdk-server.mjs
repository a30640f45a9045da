#!/usr/bin/env node
// The second bench server: the official SDK v2 (@modelcontextprotocol/server) behind its `createMcpHandler`,
// on node:http, with the same `echo` tool as bench/server.mjs. It serves both revisions (2025-11-25
// statelessly, the SDK's default) and costs far more per request than the hand-written server, so it shows
// how a real server's cost dilutes the client's share of a call. `--http <port>` (0 for a free one);
// `--sse` makes 2026 answers SSE streams (`responseMode: 'sse'`), else single JSON bodies (`'json'`).
// A body that is complete when the handler returns is sent with a Content-Length; a stream is piped.
import { createServer } from 'node:http';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

function createSdkServer() {
  const server = new McpServer(
    { name: 'autos-mcp-bench-sdk', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    {
      description: 'Returns its text.',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text: String(text ?? '') }] }),
  );
  return server;
}

const argv = process.argv.slice(2);
const handler = createMcpHandler(createSdkServer, { responseMode: argv.includes('--sse') ? 'sse' : 'json' });
const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = req.method === 'POST' ? Buffer.concat(chunks) : undefined;
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const response = await handler.fetch(
      new Request(url, { method: req.method, headers: req.headers, body }),
    );
    const headers = Object.fromEntries(response.headers);
    if (response.body === null) return void res.writeHead(response.status, headers).end();
    if ((headers['content-type'] ?? '').startsWith('text/event-stream')) {
      res.writeHead(response.status, headers);
      for await (const chunk of response.body) res.write(chunk);
      res.end();
      return;
    }
    const whole = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(whole.length);
    res.writeHead(response.status, headers).end(whole);
  } catch {
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  }
});
http.keepAliveTimeout = 60_000;
const at = argv.indexOf('--http');
http.listen(Number(argv[at + 1] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
});
const stop = () => {
  http.close();
  http.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
