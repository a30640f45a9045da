/**
 * The demo server's JSON-RPC side: one line in, the answer out. It speaks 2025-11-25 (`initialize`) and
 * 2026-07-28 (stateless, `_meta` on every request), answers `ping`, `tools/list` and `tools/call`, and stops a
 * call on `notifications/cancelled` (a cancelled call gets no answer: S25/basic/utilities/cancellation).
 */
import { ToolInputError } from './tool.js';
import { INSTRUCTIONS, TOOLS, toolNamed } from './tools.js';
import {
  type Json,
  LEGACY,
  META_SERVER_INFO,
  META_VERSION,
  MODERN,
  object,
  RpcFailure,
  SERVER_INFO,
} from './wire.js';

interface Rpc {
  id: string | number;
  method: string;
  params: Json;
}

/** The server's state: the calls in flight (to cancel them). */
export class DemoServer {
  readonly #write: (line: string) => void;
  readonly #inFlight = new Map<string | number, AbortController>();
  /** `tools/call` requests received so far (the `calls` tool reports it). */
  #calls = 0;

  constructor(write: (line: string) => void) {
    this.#write = write;
  }

  send(message: Json): void {
    this.#write(`${JSON.stringify(message)}\n`);
  }

  /** One line from the client. */
  line(text: string): void {
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    const msg = object(message);
    if (Array.isArray(message)) {
      this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: no batches' },
      });
      return;
    }
    if (typeof msg['method'] !== 'string') return; // a response to nothing we asked, or not a message
    const id = msg['id'];
    const params = object(msg['params']);
    if (id === undefined || id === null) {
      this.#notification(msg['method'], params);
      return;
    }
    if (typeof id !== 'string' && typeof id !== 'number') {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      return;
    }
    void this.#request({ id, method: msg['method'], params });
  }

  /** Stops the calls in flight (stdin ended). */
  stop(): void {
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
  }

  #notification(method: string, params: Json): void {
    if (method !== 'notifications/cancelled') return;
    const requestId = params['requestId'];
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.#inFlight.get(requestId)?.abort();
  }

  async #request(rpc: Rpc): Promise<void> {
    const meta = object(rpc.params['_meta']);
    const requested = meta[META_VERSION];
    const modern = requested !== undefined;
    const controller = new AbortController();
    this.#inFlight.set(rpc.id, controller);
    try {
      if (modern && requested !== MODERN)
        throw new RpcFailure(-32022, 'Unsupported protocol version', {
          supported: [MODERN, ...LEGACY],
          requested,
        });
      const result = await this.#answer(rpc, modern, controller.signal);
      if (controller.signal.aborted) return; // cancelled: no answer (S*/basic/utilities/cancellation)
      const body = modern
        ? { resultType: 'complete', ...result, _meta: { [META_SERVER_INFO]: SERVER_INFO } }
        : result;
      this.send({ jsonrpc: '2.0', id: rpc.id, result: body });
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure =
        error instanceof RpcFailure ? error : new RpcFailure(-32603, `Internal error: ${String(error)}`);
      this.send({
        jsonrpc: '2.0',
        id: rpc.id,
        error: {
          code: failure.code,
          message: failure.message,
          ...(failure.data === undefined ? {} : { data: failure.data }),
        },
      });
    } finally {
      if (this.#inFlight.get(rpc.id) === controller) this.#inFlight.delete(rpc.id);
    }
  }

  async #answer(rpc: Rpc, modern: boolean, signal: AbortSignal): Promise<Json> {
    switch (rpc.method) {
      case 'initialize': {
        if (modern) throw new RpcFailure(-32601, 'Method not found: initialize (2026-07-28 is stateless)');
        const asked = rpc.params['protocolVersion'];
        const version = typeof asked === 'string' && LEGACY.includes(asked) ? asked : (LEGACY[0] as string);
        return {
          protocolVersion: version,
          capabilities: { tools: {} },
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS,
        };
      }
      case 'server/discover':
        if (!modern) throw new RpcFailure(-32601, 'Method not found: server/discover');
        return {
          supportedVersions: [MODERN, ...LEGACY],
          capabilities: { tools: {} },
          instructions: INSTRUCTIONS,
        };
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: TOOLS.map((tool) => tool.definition) };
      case 'tools/call':
        return this.#call(rpc, signal);
      default:
        throw new RpcFailure(-32601, `Method not found: ${rpc.method.slice(0, 200)}`);
    }
  }

  async #call(rpc: Rpc, signal: AbortSignal): Promise<Json> {
    const callsBefore = this.#calls++;
    const name = rpc.params['name'];
    const tool = toolNamed(name);
    if (tool === undefined) throw new RpcFailure(-32602, `Unknown tool: ${String(name).slice(0, 200)}`);
    try {
      return await tool.call(object(rpc.params['arguments']), {
        params: rpc.params,
        signal,
        notify: (message) => this.send(message),
        callsBefore,
      });
    } catch (error) {
      // Bad arguments are a tool error the model can read, not a protocol error (S25/server/tools).
      if (error instanceof ToolInputError)
        return { content: [{ type: 'text', text: `Invalid arguments: ${error.message}` }], isError: true };
      throw error;
    }
  }
}
