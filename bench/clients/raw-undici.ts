// The second HTTP floor, written apart from the node:http one: undici's `request` on a keep-alive Pool (the
// engine under Node's global fetch, without fetch's WHATWG layers), one POST per request, the body read whole
// and parsed as JSON or SSE by the same minimal parser. Same headers as the first floor (S25/basic/transports,
// S26/basic/transports/streamable-http).
import { Pool } from 'undici';
import { connectOver, type Reply } from './raw-http.js';
import type { BenchClient, BenchConnection, Target } from './types.js';

async function post(pool: Pool, path: string, headers: Record<string, string>, body: string): Promise<Reply> {
  const res = await pool.request({ path, method: 'POST', headers, body });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: Buffer.from(await res.body.arrayBuffer()),
  };
}

function connectUndici(target: Extract<Target, { transport: 'http' }>): Promise<BenchConnection> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: 16 });
  const path = `${url.pathname}${url.search}`;
  return connectOver(
    target,
    (headers, body) => post(pool, path, headers, body),
    () => pool.destroy(),
  );
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
