// The HTTP floor: node:http with a keep-alive Agent, one POST per request, and a minimal JSON-or-SSE body parse.
// It sends what the revision requires and nothing more (S25/basic/transports, S26/basic/transports/streamable-http).
import { Agent, request as httpRequest } from 'node:http';
import {
  type BenchClient,
  type BenchConnection,
  INITIALIZE_PARAMS,
  modernMeta,
  type Target,
} from './types.js';

export type Reply = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const only = chunks.length === 1 ? chunks[0] : undefined;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: only ?? Buffer.concat(chunks),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Extracts the JSON-RPC response with `id` from a JSON or SSE body (SSE: the `data:` lines of each event). */
export function parseReply(reply: Reply, id: number): unknown {
  const type = String(reply.headers['content-type'] ?? '');
  const text = reply.body.toString('utf8');
  let messages: { id?: number; result?: unknown; error?: { message: string } }[];
  if (type.startsWith('text/event-stream')) {
    messages = [];
    for (const event of text.split('\n\n')) {
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data !== '') messages.push(JSON.parse(data));
    }
  } else {
    messages = [JSON.parse(text)];
  }
  const message = messages.find((m) => m.id === id);
  if (message === undefined) throw new Error(`no response for id ${id} (HTTP ${reply.status})`);
  if (message.error) throw new Error(message.error.message);
  return message.result;
}

/** One POST of `body` with `headers`; the floors differ only in how they send it. */
export type Post = (headers: Record<string, string>, body: string) => Promise<Reply>;

/**
 * The MCP exchange both floors run over their own `post`: at 2025 `initialize` (session id kept) and
 * `notifications/initialized`, at 2026 nothing; then one `tools/call` POST per call with what the revision
 * requires.
 */
export async function connectOver(
  target: Extract<Target, { transport: 'http' }>,
  post: Post,
  close: () => Promise<void> | void,
): Promise<BenchConnection> {
  const base: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  let nextId = 0;
  const modern = target.revision === '2026-07-28';
  if (modern) {
    base['mcp-protocol-version'] = '2026-07-28';
  } else {
    const id = ++nextId;
    const init = await post(
      base,
      JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: INITIALIZE_PARAMS }),
    );
    parseReply(init, id);
    const session = init.headers['mcp-session-id'];
    if (typeof session === 'string') base['mcp-session-id'] = session;
    base['mcp-protocol-version'] = '2025-11-25';
    await post(base, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }
  const meta = modern ? modernMeta() : undefined;
  return {
    async call(name, args) {
      const id = ++nextId;
      const params = meta ? { name, arguments: args, _meta: meta } : { name, arguments: args };
      const headers = modern ? { ...base, 'mcp-method': 'tools/call', 'mcp-name': name } : base;
      const reply = await post(headers, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));
      return parseReply(reply, id);
    },
    async close() {
      await close();
    },
  };
}

function connectHttp(target: Extract<Target, { transport: 'http' }>): Promise<BenchConnection> {
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return connectOver(
    target,
    (headers, body) => post(agent, url, headers, body),
    () => agent.destroy(),
  );
}

/** The raw node:http floor client. */
export const rawHttp: BenchClient = {
  name: 'raw',
  supports: (target) => target.transport === 'http',
  connect: (target) => {
    if (target.transport !== 'http') throw new Error('raw-http only connects to HTTP targets');
    return connectHttp(target);
  },
};
