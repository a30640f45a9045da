/**
 * Result budgets (`maxResultChars`) against real servers: the bundled demo server's `big` tool,
 * @modelcontextprotocol/server-everything, the hostile fixture (structuredContent nested past
 * JSON.stringify's stack), and a scripted server for a tool's `anthropic/maxResultSizeChars` hint. A result
 * over budget comes back cut — still a valid result, its JSON within the budget, ending with the marker —
 * with `truncated: { originalChars, file }`, and the file (0600, in a 0700 directory) holds it whole.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import {
  type CallToolResult,
  type Client,
  connect,
  isMcpError,
  type StdioServerConfig,
} from '../../src/index.js';
import { scriptedPair } from '../helpers/memory-server.js';
import { fixture, ROOT } from './helpers.js';

const POSIX = process.platform !== 'win32';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const files: string[] = [];

after(() => {
  for (const file of files) rmSync(file, { force: true });
});

/** Checks what every cut result must be, and returns the whole result read back from its file. */
function checkCut(result: CallToolResult, budget: number): unknown {
  const truncated = result.truncated;
  assert.ok(truncated, 'a cut result carries truncated');
  files.push(truncated.file);
  assert.ok(
    JSON.stringify(result).length <= budget,
    `want ≤ ${budget}, got ${JSON.stringify(result).length}`,
  );
  const last = result.content.at(-1);
  assert.equal(last?.type, 'text');
  assert.match(String(last?.text), /^\[autos-mcp: result cut to maxResultChars \d+/);
  assert.ok(String(last?.text).includes(truncated.file), 'the marker names the file');
  assert.ok(
    String(last?.text).includes(`${truncated.originalChars} characters`),
    'the marker gives the size',
  );
  const text = readFileSync(truncated.file, 'utf8');
  assert.equal(text.length, truncated.originalChars);
  if (POSIX) {
    assert.equal(statSync(truncated.file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(truncated.file)).mode & 0o777, 0o700);
  }
  for (const block of result.content)
    if (block.type === 'text') assert.doesNotMatch(String(block.text), LONE_SURROGATE);
  return JSON.parse(text);
}

describe('maxResultChars with the demo server', () => {
  let client: Client<CallToolResult>;
  before(async () => {
    client = await connect({
      ...demoServerCommand(),
      protocolVersion: '2025-11-25',
      maxMessageBytes: 64 * 1024 * 1024,
    });
  });
  after(() => client.close());

  test('a result over budget is cut, marked, and whole in its file; one within it is untouched', async () => {
    const whole = await client.callTool('big', { chars: 100_000 });
    assert.equal(whole.truncated, undefined, 'no budget: as the server sent it');
    const cut = await client.callTool('big', { chars: 100_000 }, { maxResultChars: 2000 });
    assert.deepEqual(checkCut(cut, 2000), whole);
    assert.equal(cut.content.length, 2, 'the shortened text and the marker');
    assert.match(String(cut.content[0]?.text), /^x+$/);
    const small = await client.callTool('big', { chars: 100 }, { maxResultChars: 2000 });
    assert.deepEqual(small, await client.callTool('big', { chars: 100 }));
  });

  test('later blocks are left out once one is cut', async () => {
    const cut = await client.callTool('big', { chars: 30_000, blocks: 3 }, { maxResultChars: 15_000 });
    checkCut(cut, 15_000);
    assert.equal(cut.content.length, 3, 'one whole block, one shortened, the marker');
    assert.equal(String(cut.content[0]?.text).length, 10_000);
  });

  test('a cut never splits a surrogate pair', async () => {
    for (let budget = 600; budget < 620; budget++) {
      const cut = await client.callTool('big', { chars: 10_000, unit: 'a😀' }, { maxResultChars: budget });
      checkCut(cut, budget);
    }
  });

  test('with a budget, a text block repeating structuredContent is left out; without one it stays', async () => {
    const plain = await client.callTool('big', { chars: 50, structured: true });
    assert.equal(plain.content.length, 1, 'plain callers see what the server sent');
    const budgeted = await client.callTool('big', { chars: 50, structured: true }, { maxResultChars: 1000 });
    assert.deepEqual(budgeted.content, []);
    assert.deepEqual(budgeted.structuredContent, plain.structuredContent);
    assert.equal(budgeted.truncated, undefined);
  });

  test('structuredContent over budget is left out, the marker says so, the text comes back cut', async () => {
    const cut = await client.callTool('big', { chars: 20_000, structured: true }, { maxResultChars: 3000 });
    const whole = checkCut(cut, 3000) as CallToolResult;
    assert.equal(cut.structuredContent, undefined);
    assert.match(String(cut.content.at(-1)?.text), /structuredContent left out/);
    assert.match(String(cut.content[0]?.text), /^\{"text":"x+$/, 'the repeat is put back and shortened');
    assert.equal(whole.content.length, 1, 'the file holds the result as the server sent it');
  });

  test('a 50 MB result is cut and written whole', async () => {
    const cut = await client.callTool('big', { chars: 50_000_000 }, { maxResultChars: 4000 });
    const whole = checkCut(cut, 4000) as CallToolResult;
    assert.ok(cut.truncated && cut.truncated.originalChars > 50_000_000);
    assert.equal(String(whole.content[0]?.text).length, 50_000_000);
  });

  test('a budget out of range is a config error, nothing sent', async () => {
    for (const bad of [0, 511, 1.5, Number.POSITIVE_INFINITY]) {
      const error = await client.callTool('big', {}, { maxResultChars: bad }).catch((e: unknown) => e);
      assert.ok(isMcpError(error) && error.kind === 'config', String(error));
      assert.equal(error.delivery, 'not_sent');
    }
  });
});

describe('maxResultChars in the config', () => {
  test('applies to every call; a call’s own budget wins', async () => {
    const client = await connect({
      ...demoServerCommand(),
      protocolVersion: '2025-11-25',
      maxResultChars: 1000,
    });
    try {
      checkCut(await client.callTool('big', { chars: 5000 }), 1000);
      const wider = await client.callTool('big', { chars: 5000 }, { maxResultChars: 10_000 });
      assert.equal(wider.truncated, undefined);
    } finally {
      await client.close();
    }
  });
});

describe('maxResultChars with hostile and third-party servers', () => {
  test('structuredContent nested 200,000 levels deep is left out and written whole', async () => {
    const config: StdioServerConfig = fixture('hostile-server.mjs', ['deep-structured', '200000']);
    const client = await connect({ ...config, protocolVersion: '2025-11-25' });
    try {
      const cut = await client.callTool('echo', { text: 'x' }, { maxResultChars: 1000 });
      checkCut(cut, 1000);
      assert.equal(cut.structuredContent, undefined);
      assert.equal(cut.content[0]?.text, 'deep');
    } finally {
      await client.close();
    }
  });

  test('server-everything: get-structured-content loses its repeat; echo is cut', async () => {
    const client = await connect({
      protocolVersion: '2025-11-25',
      command: process.execPath,
      args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    });
    try {
      const plain = await client.callTool('get-structured-content', { location: 'New York' });
      assert.ok(plain.content.length >= 1 && plain.structuredContent !== undefined);
      const budgeted = await client.callTool(
        'get-structured-content',
        { location: 'New York' },
        { maxResultChars: 5000 },
      );
      assert.equal(budgeted.content.length, plain.content.length - 1, 'the JSON text block is left out');
      assert.deepEqual(budgeted.structuredContent, plain.structuredContent);
      const cut = await client.callTool('echo', { message: 'y'.repeat(5000) }, { maxResultChars: 1000 });
      checkCut(cut, 1000);
    } finally {
      await client.close();
    }
  });
});

describe('a tool’s anthropic/maxResultSizeChars', () => {
  /** A scripted server whose tool `big` says it sends at most `hint` characters, and answers 4000. */
  async function hinted(hint: number) {
    const { connection } = scriptedPair({
      tools: [
        { name: 'big', inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': hint } },
      ],
      onRequest: (request, server) =>
        server.reply(request.id, { content: [{ type: 'text', text: 'z'.repeat(4000) }] }),
    });
    return connect({ protocolVersion: '2025-11-25' }, { connection });
  }

  test('lowers the caller’s budget, never raises it, and alone cuts nothing', async () => {
    const low = await hinted(1000);
    try {
      checkCut(await low.callTool('big', {}, { maxResultChars: 3000 }), 1000);
      assert.equal((await low.callTool('big', {})).truncated, undefined, 'no budget of the caller: whole');
    } finally {
      await low.close();
    }
    const high = await hinted(1_000_000);
    try {
      checkCut(await high.callTool('big', {}, { maxResultChars: 2000 }), 2000);
    } finally {
      await high.close();
    }
  });
});
