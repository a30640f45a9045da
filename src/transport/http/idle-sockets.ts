/**
 * Keep-alive sockets that have waited too long are not reused. A server closes an idle connection after its
 * own timeout (5 s in Node and uvicorn); a request written to a socket the server is closing, or has closed
 * while this process was too busy to notice, fails with ECONNRESET, and since nothing is resent on its own
 * that call is lost. So a socket idle for `limitMs` or more (4 s by default, as undici's own default) is
 * closed before the next request picks one, measured when the request is made, not only by a timer a busy
 * event loop may run late. Node's Agent takes free sockets from the end of its list and skips closed ones
 * at the front; sockets are freed in time order, so the stale ones are always at the front.
 *
 * Runtimes whose node:http has no Agent socket pool of its own (Bun, Deno) call none of this: a no-op there.
 */
import type { Agent } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export const IDLE_SOCKET_LIMIT_MS = 4_000;

/**
 * The idle limit under a server's `Keep-Alive: timeout=N` hint: 2 s short of it (a busy process notices a
 * freed socket late), never over `limitMs`; 0 (never reuse) when the hint leaves under 1 s.
 */
export function hintedLimit(hint: string | string[] | undefined, limitMs: number): number {
  const text = Array.isArray(hint) ? hint[0] : hint;
  const seconds = /(?:^|[\s,])timeout=(\d{1,6})(?:$|[\s,])/i.exec(text ?? '')?.[1];
  if (seconds === undefined) return limitMs;
  const hinted = Number(seconds) * 1000 - 2_000;
  return Math.min(limitMs, hinted < 1_000 ? 0 : hinted);
}

/** When a free socket was put back in the pool: a property, cheaper per call than a WeakMap entry. */
const FREED_AT = Symbol('freedAt');
type Stamped = Socket & { [FREED_AT]?: number };

/**
 * Makes `agent` stamp the sockets it keeps and close them after `limitMs()` idle. The closing is the Agent's
 * own: its `timeout` option is the idle timeout it gives a freed socket, which it closes when that fires
 * (a socket in use ignores it), and it re-arms the timer only when the value changes. Setting the timeout
 * here on every free and clearing it on every reuse cost three timer updates per request (~5 % of a
 * loopback call).
 */
export function limitIdleSockets(agent: Agent, limitMs: () => number): void {
  const keep = agent.keepSocketAlive.bind(agent);
  // Node's Agent has `options` (the constructor's, read on every free); @types/node does not declare it.
  const options = (agent as Agent & { options: { timeout?: number } }).options;
  // @types/node says keepSocketAlive returns void; Node's returns whether the socket is kept.
  agent.keepSocketAlive = (socket: Duplex) => {
    const limit = limitMs();
    if (limit === 0) return false;
    options.timeout = Math.min(limit, 2 ** 31 - 1);
    const kept: unknown = keep(socket);
    if (kept === false) return false;
    if (socket instanceof Socket) (socket as Stamped)[FREED_AT] = performance.now();
    return kept;
  };
}

/** Closes the free sockets of `agent` idle for `limitMs` or more; call before each request. */
export function closeStaleSockets(agent: Agent, limitMs: number): void {
  const free = agent.freeSockets;
  let now: number | undefined;
  // `for in`, not Object.values: no array per request (one origin: one key, or none while a request runs).
  for (const name in free) {
    const sockets = free[name];
    if (sockets === undefined) continue;
    for (const socket of sockets) {
      if (!(socket instanceof Socket)) break;
      const since = (socket as Stamped)[FREED_AT];
      now ??= performance.now();
      if (since === undefined || now - since < limitMs) break;
      socket.destroy();
    }
  }
}
