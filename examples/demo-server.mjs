#!/usr/bin/env node
// Demo MCP server built on the official SDK v2 (@modelcontextprotocol/server), used by examples, docs and tests.
// It serves revisions 2025-11-25 (initialize, sessions) and 2026-07-28 (stateless, per-request `_meta`) over
// stdio (default) or Streamable HTTP (`--http <port>`, port 0 allowed; `--json-response` answers JSON, not SSE).
// Tools: echo, slow (progress notifications), image (a generated PNG), fail (an `isError` result).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';
import {
  createMcpHandler,
  fromJsonSchema,
  isInitializeRequest,
  isJsonContentType,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const INSTRUCTIONS =
  'Demo server for autos-mcp. Tools: echo (repeat text), slow (progress notifications), ' +
  'image (a small PNG), fail (a tool error result).';

/** CRC-32 (IEEE) over a byte range, as PNG chunks require. */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid 16×16 RGB gradient PNG, built in code so the demo ships no binary files. */
function makePng(size = 16) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour RGB
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3); // each scanline starts with filter byte 0 (None)
    for (let x = 0; x < size; x++) {
      raw[row + 1 + x * 3] = (x * 255) / (size - 1);
      raw[row + 2 + x * 3] = (y * 255) / (size - 1);
      raw[row + 3 + x * 3] = 128;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_BASE64 = makePng().toString('base64');
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The server factory: one definition backs both eras (the SDK calls it per connection or per request). */
function createDemoServer() {
  const server = new McpServer(
    { name: 'autos-mcp-demo', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.registerTool(
    'echo',
    {
      description: 'Returns its text argument unchanged.',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
      outputSchema: fromJsonSchema({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
  );
  server.registerTool(
    'slow',
    {
      description: 'Waits `steps` × `delayMs`, sending a progress notification per step when asked to.',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: {
          steps: { type: 'integer', minimum: 1, maximum: 1000, default: 5 },
          delayMs: { type: 'integer', minimum: 0, maximum: 60000, default: 200 },
        },
      }),
    },
    async ({ steps = 5, delayMs = 200 }, ctx) => {
      // S*/basic/utilities/progress: notifications only when the request carried a progressToken.
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs, ctx.mcpReq.signal);
        if (ctx.mcpReq.signal.aborted) break;
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: i, total: steps, message: `step ${i} of ${steps}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
  server.registerTool(
    'image',
    { description: 'Returns a small PNG image.', inputSchema: fromJsonSchema({ type: 'object' }) },
    async () => ({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  );
  server.registerTool(
    'fail',
    {
      description: 'Always fails with a tool error (isError: true), never a protocol error.',
      inputSchema: fromJsonSchema({ type: 'object', properties: { reason: { type: 'string' } } }),
    },
    async ({ reason }) => ({
      content: [{ type: 'text', text: reason ?? 'failed on purpose' }],
      isError: true,
    }),
  );
  return server;
}

/** Reads a node:http request body fully (bounded) so both era legs can share one parsed value. */
async function readBody(req, limit = 4 * 1024 * 1024) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw Object.assign(new Error('body too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function writeResponse(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

/**
 * HTTP serving. Modern (2026-07-28) traffic goes to the SDK's stateless `createMcpHandler`; legacy (2025-11-25)
 * traffic gets a sessionful transport per `initialize`, as a 2025 server would (S25/basic/transports, sessions).
 * The split uses the SDK's own `isLegacyRequest`, so routing cannot disagree with the entry.
 */
function serveHttp(port, jsonResponse) {
  const modern = createMcpHandler(createDemoServer, {
    legacy: 'reject',
    responseMode: jsonResponse ? 'json' : 'auto',
  });
  /** @type {Map<string, WebStandardStreamableHTTPServerTransport>} */
  const sessions = new Map();

  async function legacy(request, parsedBody) {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return new Response('unknown session', { status: 404 });
      return transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'missing Mcp-Session-Id' } },
        { status: 400 },
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: jsonResponse,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await createDemoServer().connect(transport);
    return transport.handleRequest(request, { parsedBody });
  }

  const http = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      if (url.pathname !== '/mcp') return void res.writeHead(404).end();
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (body !== undefined && !isJsonContentType(req.headers['content-type'] ?? '')) {
        return void res.writeHead(415).end();
      }
      let parsedBody;
      try {
        parsedBody = body === undefined || body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
      } catch {
        parsedBody = undefined; // the SDK answers the parse error itself (body is passed along)
      }
      const request = new Request(url, { method: req.method, headers: req.headers, body });
      const response = (await isLegacyRequest(request, parsedBody))
        ? await legacy(request, parsedBody)
        : await modern.fetch(request, { parsedBody });
      await writeResponse(res, response);
    } catch (error) {
      if (!res.headersSent) res.writeHead(error?.status ?? 500).end();
      else res.destroy();
    }
  });
  http.listen(port, '127.0.0.1', () => {
    const { port: actual } = http.address();
    process.stdout.write(`listening http://127.0.0.1:${actual}/mcp\n`);
  });
  // Open sessions and keep-alive sockets would keep the loop alive, so a signal closes them and then exits.
  const stop = () => {
    http.close();
    http.closeAllConnections();
    const closing = [modern.close(), ...[...sessions.values()].map((t) => t.close())];
    void Promise.allSettled(closing).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const args = process.argv.slice(2);
const httpAt = args.indexOf('--http');
if (httpAt === -1) {
  // stdout is the protocol channel on stdio, so the banner goes to stderr (S*/basic/transports/stdio).
  serveStdio(createDemoServer);
  process.stderr.write('autos-mcp demo server on stdio\n');
} else {
  const port = Number(args[httpAt + 1] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: demo-server.mjs [--http <port>] [--json-response]\n');
    process.exit(2);
  }
  serveHttp(port, args.includes('--json-response'));
}
