// Checks examples/demo-server.mjs end to end with raw JSON-RPC (no autos-mcp client), so the demo that docs and
// other tests lean on is known good: all four tools over stdio at 2025-11-25 and 2026-07-28, then over
// Streamable HTTP (SSE and --json-response) at both revisions.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { must } from '../helpers/must.js';

const SERVER = new URL('../../examples/demo-server.mjs', import.meta.url).pathname;
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Message = {
  id?: number;
  method?: string;
  result?: Record<string, unknown>;
  params?: Record<string, unknown>;
};

/** A line-JSON peer over a spawned demo server: send() writes a line, next() awaits the next stdout message. */
class StdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #queue: Message[] = [];
  readonly #waiters: ((m: Message) => void)[] = [];
  #id = 0;

  constructor() {
    this.child = spawn(process.execPath, [SERVER], { stdio: 'pipe' });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Message;
      const waiter = this.#waiters.shift();
      if (waiter) waiter(message);
      else this.#queue.push(message);
    });
  }

  send(message: object): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  next(): Promise<Message> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Sends a request and collects every message up to its response (notifications included). */
  async request(
    method: string,
    params: object,
  ): Promise<{ result: Record<string, unknown>; seen: Message[] }> {
    const id = ++this.#id;
    this.send({ id, method, params });
    const seen: Message[] = [];
    for (;;) {
      const message = await this.next();
      if (message.id === id) return { result: message.result ?? {}, seen };
      seen.push(message);
    }
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await once(this.child, 'exit');
  }
}

type CallResult = { content: { type: string; text?: string; data?: string; mimeType?: string }[] } & Record<
  string,
  unknown
>;

/** Runs the four tools through `call` and checks each result; `meta` extends every request's `_meta`. */
async function checkAllTools(
  call: (name: string, args: object, meta?: object) => Promise<{ result: CallResult; seen: Message[] }>,
  expectProgress = true,
) {
  const echo = await call('echo', { text: 'héllo' });
  assert.deepEqual(echo.result.content, [{ type: 'text', text: 'héllo' }]);
  assert.deepEqual(echo.result['structuredContent'], { text: 'héllo' });

  const slow = await call('slow', { steps: 3, delayMs: 5 }, { progressToken: 'tok' });
  assert.deepEqual(slow.result.content, [{ type: 'text', text: 'done after 3 steps' }]);
  const progress = slow.seen
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => m.params?.['progress']);
  assert.deepEqual(progress, expectProgress ? [1, 2, 3] : []);

  const image = await call('image', {});
  const block = image.result.content[0];
  assert.equal(block?.type, 'image');
  assert.equal(block?.mimeType, 'image/png');
  assert.deepEqual(Buffer.from(block?.data ?? '', 'base64').subarray(0, 8), PNG_SIGNATURE);

  const fail = await call('fail', { reason: 'on purpose' });
  assert.equal(fail.result['isError'], true);
  assert.deepEqual(fail.result.content, [{ type: 'text', text: 'on purpose' }]);
}

describe('demo server over stdio', () => {
  test('2025-11-25: initialize gives instructions, tools/list names four tools, each tool answers', async (t) => {
    const peer = new StdioPeer();
    t.after(() => peer.close());
    const init = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test', version: '0' },
    });
    assert.equal(init.result['protocolVersion'], '2025-11-25');
    assert.match(String(init.result['instructions']), /demo server/i);
    peer.send({ method: 'notifications/initialized' });
    const list = await peer.request('tools/list', {});
    const tools = list.result['tools'] as { name: string; outputSchema?: object }[];
    assert.deepEqual(tools.map((x) => x.name).sort(), ['echo', 'fail', 'image', 'slow']);
    assert.ok(tools.find((x) => x.name === 'echo')?.outputSchema, 'echo declares an outputSchema');
    await checkAllTools(async (name, args, meta) => {
      const r = await peer.request('tools/call', { name, arguments: args, ...(meta && { _meta: meta }) });
      assert.equal(r.result['resultType'], undefined, 'no resultType in 2025');
      return { result: r.result as CallResult, seen: r.seen };
    });
  });

  test('2026-07-28: server/discover lists the version, every tool answers with resultType complete', async (t) => {
    const peer = new StdioPeer();
    t.after(() => peer.close());
    const discover = await peer.request('server/discover', { _meta: MODERN_META });
    assert.ok((discover.result['supportedVersions'] as string[]).includes('2026-07-28'));
    assert.match(String(discover.result['instructions']), /demo server/i);
    await checkAllTools(async (name, args, meta) => {
      const r = await peer.request('tools/call', {
        name,
        arguments: args,
        _meta: { ...MODERN_META, ...meta },
      });
      assert.equal(r.result['resultType'], 'complete');
      return { result: r.result as CallResult, seen: r.seen };
    });
  });
});

/** Starts the demo in HTTP mode and returns its URL from the `listening <url>` line on stdout. */
async function startHttp(extra: string[]): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, [SERVER, '--http', '0', ...extra], { stdio: 'pipe' });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const match = /^listening (http:\/\/\S+)$/.exec(line);
  assert.ok(match, `want "listening <url>", got ${line}`);
  return { url: must(match[1], `the URL in ${line}`), child };
}

/** Parses a JSON or SSE response body into the messages it carries. */
async function readMessages(response: Response): Promise<Message[]> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return [JSON.parse(text) as Message];
  return text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)) as Message);
}

for (const mode of ['sse', 'json'] as const) {
  describe(`demo server over Streamable HTTP (${mode})`, () => {
    let server: { url: string; child: ChildProcessWithoutNullStreams };
    before(async () => {
      server = await startHttp(mode === 'json' ? ['--json-response'] : []);
    });
    after(async () => {
      server.child.kill('SIGTERM');
      if (server.child.exitCode === null) await once(server.child, 'exit');
    });

    const post = async (body: object, headers: Record<string, string>) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
      return response;
    };

    test('2025-11-25: initialize returns a session id and the session serves every tool', async () => {
      const init = await post(
        {
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '0' },
          },
        },
        {},
      );
      assert.equal(init.status, 200);
      const session = init.headers.get('mcp-session-id');
      assert.ok(session, 'want an Mcp-Session-Id header on the initialize response');
      await readMessages(init);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const initialized = await post({ method: 'notifications/initialized' }, headers);
      assert.equal(initialized.status, 202);
      let id = 1;
      await checkAllTools(async (name, args, meta) => {
        const messages = await readMessages(
          await post(
            {
              id: ++id,
              method: 'tools/call',
              params: { name, arguments: args, ...(meta && { _meta: meta }) },
            },
            headers,
          ),
        );
        const response = messages.find((m) => m.id === id);
        return { result: response?.result as CallResult, seen: messages };
      }, mode === 'sse');
    });

    test('2026-07-28: stateless requests with _meta and headers serve every tool', async () => {
      let id = 100;
      const discover = await readMessages(
        await post(
          { id: ++id, method: 'server/discover', params: { _meta: MODERN_META } },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
        ),
      );
      assert.ok((discover[0]?.result?.['supportedVersions'] as string[] | undefined)?.includes('2026-07-28'));
      await checkAllTools(async (name, args, meta) => {
        const response = await post(
          {
            id: ++id,
            method: 'tools/call',
            params: { name, arguments: args, _meta: { ...MODERN_META, ...meta } },
          },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        );
        assert.equal(response.headers.get('mcp-session-id'), null, 'no session in 2026');
        const messages = await readMessages(response);
        const result = messages.find((m) => m.id === id)?.result as CallResult;
        assert.equal(result['resultType'], 'complete');
        return { result, seen: messages };
      }, mode === 'sse');
    });
  });
}
