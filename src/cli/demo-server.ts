/**
 * `autos-mcp demo-server`: the demo MCP server shipped in the package, on stdio. Written by hand with no
 * dependency (one JSON-RPC message per line), so it runs from an installed copy alone. It speaks
 * 2025-11-25 (`initialize`) and 2026-07-28 (stateless, `_meta` on every request), with the tools of
 * `examples/demo-server.mjs`: echo, slow (progress notifications), image (a generated PNG), fail (an
 * `isError` result).
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const MODERN = '2026-07-28';
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO = { name: 'autos-mcp-demo', version: '1.0.0' };
/** The longest line read; a longer one is answered with a parse error and skipped. */
const MAX_LINE = 4 * 1024 * 1024;

const INSTRUCTIONS =
  'Demo server for autos-mcp. Tools: echo (repeat text), slow (progress notifications), ' +
  'image (a small PNG), confirm (asks the user, 2026-07-28), typed (returns its arguments), ' +
  'fail (a tool error result).';

const TOOLS = [
  {
    name: 'echo',
    description: 'Returns its text argument unchanged.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to return.' } },
      required: ['text'],
    },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'slow',
    description: 'Waits `steps` × `delayMs`, sending a progress notification per step when asked to.',
    inputSchema: {
      type: 'object',
      properties: {
        steps: { type: 'integer', minimum: 1, maximum: 1000, default: 5, description: 'How many steps.' },
        delayMs: {
          type: 'integer',
          minimum: 0,
          maximum: 60000,
          default: 200,
          description: 'Milliseconds per step.',
        },
      },
    },
  },
  { name: 'image', description: 'Returns a small PNG image.', inputSchema: { type: 'object' } },
  {
    name: 'confirm',
    description:
      'Asks the user to confirm `text` (2026-07-28: an input_required result with one elicitation) and returns what they answered.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to confirm.' } },
      required: ['text'],
    },
  },
  {
    name: 'typed',
    description: 'Returns its arguments as one line of JSON, to see the types they arrived with.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'An id that stays a string, such as 1712345.000100.' },
        count: { type: 'integer', description: 'A whole number.' },
        ratio: { type: 'number', description: 'Any number.' },
        dryRun: { type: 'boolean', description: 'true or false.' },
        mode: { type: 'string', enum: ['fast', 'safe'], description: 'fast or safe.' },
        tags: { type: 'array', items: { type: 'string' }, description: 'A list of strings.' },
        options: {
          type: 'object',
          properties: { depth: { type: 'integer' } },
          description: 'An object, such as {"depth":2}.',
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
  },
  {
    name: 'fail',
    description: 'Always fails with a tool error (isError: true), never a protocol error.',
    inputSchema: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'The error text to return.' } },
    },
  },
];

/** CRC-32 (IEEE) over a byte range, as PNG chunks require. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid 16×16 RGB gradient PNG, built in code so the package ships no binary files. */
function makePng(size = 16): Buffer {
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

type Json = Record<string, unknown>;

interface Rpc {
  id: string | number;
  method: string;
  params: Json;
}

class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function integerArg(args: Json, name: string, fallback: number, min: number, max: number): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

class ToolInputError extends Error {}

/** The server's state: the era of the legacy session, and the calls in flight (to cancel them). */
class DemoServer {
  readonly #write: (line: string) => void;
  readonly #inFlight = new Map<string | number, AbortController>();
  #png: string | undefined;

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
        return { tools: TOOLS };
      case 'tools/call':
        return this.#call(rpc, signal);
      default:
        throw new RpcFailure(-32601, `Method not found: ${rpc.method.slice(0, 200)}`);
    }
  }

  async #call(rpc: Rpc, signal: AbortSignal): Promise<Json> {
    const name = rpc.params['name'];
    const args = object(rpc.params['arguments']);
    try {
      switch (name) {
        case 'echo': {
          const text = args['text'];
          if (typeof text !== 'string') throw new ToolInputError('text must be a string');
          return { content: [{ type: 'text', text }], structuredContent: { text } };
        }
        case 'slow': {
          const steps = integerArg(args, 'steps', 5, 1, 1000);
          const delayMs = integerArg(args, 'delayMs', 200, 0, 60000);
          const token = object(rpc.params['_meta'])['progressToken'];
          for (let i = 1; i <= steps && !signal.aborted; i++) {
            await sleep(delayMs, signal);
            // Notifications only when the request carried a progressToken (S*/basic/utilities/progress).
            if (!signal.aborted && (typeof token === 'string' || typeof token === 'number'))
              this.send({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken: token, progress: i, total: steps, message: `step ${i} of ${steps}` },
              });
          }
          return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
        }
        case 'image':
          this.#png ??= makePng().toString('base64');
          return { content: [{ type: 'image', data: this.#png, mimeType: 'image/png' }] };
        case 'confirm':
          return confirm(rpc.params, args);
        case 'typed':
          return { content: [{ type: 'text', text: JSON.stringify(args) }] };
        case 'fail': {
          const reason = args['reason'];
          return {
            content: [{ type: 'text', text: typeof reason === 'string' ? reason : 'failed on purpose' }],
            isError: true,
          };
        }
        default:
          throw new RpcFailure(-32602, `Unknown tool: ${String(name).slice(0, 200)}`);
      }
    } catch (error) {
      // Bad arguments are a tool error the model can read, not a protocol error (S25/server/tools).
      if (error instanceof ToolInputError)
        return { content: [{ type: 'text', text: `Invalid arguments: ${error.message}` }], isError: true };
      throw error;
    }
  }
}

/**
 * `confirm`, by MRTR (S26/basic/patterns/mrtr): the first request gets `input_required` with one form
 * elicitation (only for a client that declared elicitation); the retry carries the answer under the same
 * key. Stateless: what is confirmed is the retry's own `text`. A 2025 session has no MRTR, and this demo
 * server sends no server-to-client requests, so there it is a tool error that says so.
 */
function confirm(params: Json, args: Json): Json {
  const text = args['text'];
  if (typeof text !== 'string') throw new ToolInputError('text must be a string');
  const meta = object(params['_meta']);
  if (meta[META_VERSION] === undefined)
    return {
      content: [{ type: 'text', text: 'confirm needs protocol 2026-07-28 (it asks through input_required)' }],
      isError: true,
    };
  const answer = object(object(params['inputResponses'])['confirm']);
  if (answer['action'] === undefined) {
    const capabilities = object(meta[META_CLIENT_CAPABILITIES]);
    if (capabilities['elicitation'] === undefined)
      return {
        content: [{ type: 'text', text: 'confirm needs a client that answers elicitation' }],
        isError: true,
      };
    return {
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `Confirm: ${text.slice(0, 200)}?`,
            requestedSchema: {
              type: 'object',
              properties: { ok: { type: 'boolean', title: 'Confirm' } },
              required: ['ok'],
            },
          },
        },
      },
    };
  }
  const ok = answer['action'] === 'accept' && object(answer['content'])['ok'] === true;
  const said = ok ? 'confirmed' : `not confirmed (${String(answer['action']).slice(0, 20)})`;
  return { content: [{ type: 'text', text: `${said}: ${text}` }], structuredContent: { confirmed: ok } };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Where the server reads and writes (`process.stdin` and `process.stdout` fit). */
interface DemoServerIo {
  stdin: {
    setEncoding(encoding: BufferEncoding): unknown;
    on(event: 'data', listener: (chunk: string) => void): unknown;
    on(event: 'end' | 'close', listener: () => void): unknown;
    on(event: 'error', listener: (error: Error) => void): unknown;
  };
  stdout: { write(text: string): unknown };
}

/**
 * Serves the demo on `stdin`/`stdout` (one JSON message per line) until stdin ends; resolves then, with
 * every call in flight stopped and no timer left.
 */
export function serveDemo(io: DemoServerIo): Promise<void> {
  const server = new DemoServer((line) => io.stdout.write(line));
  return new Promise((resolve) => {
    let buffered = '';
    let skipping = false;
    io.stdin.setEncoding('utf8');
    io.stdin.on('data', (chunk: string) => {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        const piece = chunk.slice(start, nl);
        start = nl + 1;
        if (skipping) skipping = false;
        else server.line(buffered + piece);
        buffered = '';
      }
      if (skipping) return;
      buffered += chunk.slice(start);
      if (buffered.length > MAX_LINE) {
        buffered = '';
        skipping = true;
        server.send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error: line too long' },
        });
      }
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      server.stop();
      resolve();
    };
    io.stdin.on('end', end);
    io.stdin.on('close', end);
    io.stdin.on('error', end);
  });
}

/** This module's own file: `node <it>` runs the server, as `autos-mcp demo` does (no repository needed). */
const DEMO_SERVER_SCRIPT = fileURLToPath(import.meta.url);

/** The command line that starts the bundled demo server over stdio. */
export function demoServerCommand(): { command: string; args: string[] } {
  // From the source tree (tests under tsx) the module is TypeScript and needs the tsx loader.
  const loader = DEMO_SERVER_SCRIPT.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return { command: process.execPath, args: [...loader, DEMO_SERVER_SCRIPT] };
}

function runAsScript(): boolean {
  const entry = process.argv[1];
  // Only as its own file (a chunk of the bundle, or the source), never when inlined into another one.
  if (entry === undefined || !basename(DEMO_SERVER_SCRIPT).startsWith('demo-server')) return false;
  try {
    return realpathSync(entry) === realpathSync(DEMO_SERVER_SCRIPT);
  } catch {
    return false;
  }
}

if (runAsScript()) void serveDemo({ stdin: process.stdin, stdout: process.stdout });
