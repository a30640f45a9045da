/**
 * A scripted MCP server on the server end of `createMemoryPair()`: answers `initialize`, `tools/list` and
 * `server/discover` like a real server would, and hands every other request to the test. Records what the
 * client sent (messages and per-message headers), so tests assert on the wire without sockets or processes.
 */

import { Engine } from '../../src/client/engine.js';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import {
  type ConnectionTraits,
  createMemoryPair,
  type MemoryDelivery,
  type MemoryServerEnd,
} from '../../src/transport/index.js';

type Request = { jsonrpc: '2.0'; id: number | string; method: string; params?: Record<string, unknown> };

export interface ScriptedServer {
  /** The raw server end of the pair (send anything, end the connection). */
  readonly peer: MemoryServerEnd;
  /** Every message the client sent, in order. */
  readonly received: MemoryDelivery[];
  /** Requests the script did not answer, for the test to answer with `reply`. */
  readonly open: Request[];
  reply(id: number | string, result: Record<string, unknown>): void;
  fail(id: number | string, code: number, message: string): void;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Messages of one method the client sent. */
  sent(method: string): JsonRpcMessage[];
}

export interface ScriptOptions {
  traits?: Partial<ConnectionTraits>;
  /** Tools `tools/list` answers with. */
  tools?: Array<Record<string, unknown>>;
  /** Called for each request the script does not answer itself. */
  onRequest?: (request: Request, server: ScriptedServer) => void;
}

const TOOL = { name: 'echo', inputSchema: { type: 'object' } };

/** Creates a pair and its scripted server; hand `connection` to `connect(config, { connection })`. */
export function scriptedPair(options: ScriptOptions = {}) {
  const { client, server: end } = createMemoryPair({
    target: 'memory test server',
    traits: options.traits ?? {},
  });
  const received: MemoryDelivery[] = [];
  const open: Request[] = [];
  const server: ScriptedServer = {
    peer: end,
    received,
    open,
    reply: (id, result) => end.send({ jsonrpc: '2.0', id, result }),
    fail: (id, code, message) => end.send({ jsonrpc: '2.0', id, error: { code, message } }),
    notify: (method, params) => end.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }),
    sent: (method) => received.map((d) => d.message).filter((m) => 'method' in m && m.method === method),
  };
  end.onMessage((delivery) => {
    received.push(delivery);
    const message = delivery.message as Partial<Request>;
    if (message.id === undefined || message.method === undefined) return;
    const request = message as Request;
    switch (request.method) {
      case 'initialize':
        server.reply(request.id, {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'scripted', version: '1.0.0' },
        });
        return;
      case 'server/discover':
        server.reply(request.id, {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '2.0.0' } },
        });
        return;
      case 'tools/list':
        server.reply(request.id, { tools: options.tools ?? [TOOL] });
        return;
      default:
        open.push(request);
        options.onRequest?.(request, server);
    }
  });
  return { connection: client, server };
}

/** A started engine over a scripted pair (1 s default deadline), for tests of correlation and deadlines. */
export async function startedEngine(traits: Partial<ConnectionTraits> = {}) {
  const { connection, server } = scriptedPair({ traits });
  const engine = new Engine(connection, {
    target: 'memory test server',
    defaultTimeoutMs: 1000,
    onServerRequest: () => {},
    onNotification: () => {},
  });
  await engine.start();
  return { engine, server };
}
