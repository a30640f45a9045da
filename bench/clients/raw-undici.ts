// The second HTTP floor, written apart from the node:http one: undici's `request` on a keep-alive Pool (the
// engine under Node's global fetch, without fetch's WHATWG layers), one POST per request, the body read whole
// and parsed as JSON or SSE by the same minimal parser. Same headers as the first floor (S25/basic/transports,
// S26/basic/transports/streamable-http).
import { Pool } from 'undici';
import { parseReply } from './raw-http.js';
import {
  type BenchClient,
  type BenchConnection,
  INITIALIZE_PARAMS,
  modernMeta,
  type Target,
} from './types.js';

async function post(pool: Pool, path: string, headers: Record<string, string>, body: string) {
  const res = await pool.request({ path, method: 'POST', headers, body });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: Buffer.from(await res.body.arrayBuffer()),
  };
}

async function connectUndici(target: Extract<Target, { transport: 'http' }>): Promise<BenchConnection> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: 16 });
  const path = `${url.pathname}${url.search}`;
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
      pool,
      path,
      base,
      JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: INITIALIZE_PARAMS }),
    );
    parseReply(init, id);
    const session = init.headers['mcp-session-id'];
    if (typeof session === 'string') base['mcp-session-id'] = session;
    base['mcp-protocol-version'] = '2025-11-25';
    await post(pool, path, base, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }
  const meta = modern ? modernMeta() : undefined;
  return {
    async call(name, args) {
      const id = ++nextId;
      const params = meta ? { name, arguments: args, _meta: meta } : { name, arguments: args };
      const headers = modern ? { ...base, 'mcp-method': 'tools/call', 'mcp-name': name } : base;
      const reply = await post(
        pool,
        path,
        headers,
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      );
      return parseReply(reply, id);
    },
    async close() {
      await pool.destroy();
    },
  };
}

/** The undici floor client: a second floor beside node:http, so a result does not rest on one floor. */
export const rawUndici: BenchClient = {
  name: 'raw-undici',
  supports: (target) => target.transport === 'http',
  connect: (target) => {
    if (target.transport !== 'http') throw new Error('raw-undici only connects to HTTP targets');
    return connectUndici(target);
  },
};
