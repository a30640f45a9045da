/**
 * An error about a tool name the server does not have lists the names it does have: all of them when
 * there are few (up to 20), the closest otherwise. Against the official SDK v2 demo server (it answers an
 * unknown tool with -32602), server-everything (SDK v1) with `validateArguments`, and line-JSON servers
 * written for the counts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isErrorKind, isMcpError, type StdioServerConfig, withClient } from '../../src/index.js';
import { demoServer, ROOT } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

/**
 * A 2025 stdio server listing `count` tools `tool_0…`, answering -32602 to a call of any other name, and
 * to `tool_0` called without its `x` (bad arguments); it counts the requests it got in its answers.
 */
function counted(count: number): StdioServerConfig {
  const script = `const tools = Array.from({ length: ${count} }, (_, i) => ({ name: 'tool_' + i, inputSchema: { type: 'object' } }));
let lists = 0;
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const answer = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  const refuse = (message) => send({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message } });
  if (m.method === 'initialize') return answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'n', version: '1' } });
  if (m.method === 'tools/list') { lists++; return answer({ tools }); }
  if (m.method !== 'tools/call') return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
  if (!tools.some((t) => t.name === m.params.name)) return refuse('Tool ' + m.params.name + ' not found');
  if (m.params.arguments.x === undefined) return refuse('x is required');
  answer({ content: [{ type: 'text', text: 'lists=' + lists }] });
});`;
  return { command: process.execPath, args: ['-e', script] };
}

describe('an unknown tool, the server refusing it with -32602', () => {
  test('official SDK v2 demo server: the rpc error names its four tools, the closest first', async () => {
    await withClient(demoServer(), async (client) => {
      const error = await rejection(client.callTool('ech', {}));
      assert.ok(isErrorKind(error, 'rpc'));
      assert.equal(error.code, -32602);
      assert.equal(error.rpcMessage, 'Tool ech not found', "the server's own words stay as they were");
      assert.ok(
        error.message.endsWith(
          ': Tool ech not found; the server has no tool "ech": did you mean: echo? (its tools: echo, slow, image, fail)',
        ),
        error.message,
      );
    });
  });

  test('more than 20 tools: the closest names and the count, not every name', async () => {
    await withClient(counted(30), async (client) => {
      const error = await rejection(client.callTool('tool_3x', {}));
      assert.match(
        error.message,
        /did you mean: tool_3, tool_0, tool_1\? \(it lists 30 tools; listTools\(\) names them\)$/,
      );
      assert.doesNotMatch(error.message, /tool_29/);
      const far = await rejection(client.callTool('zzzzzzzz', {}));
      assert.match(
        far.message,
        /the server has no tool "zzzzzzzz": it lists 30 tools; listTools\(\) names them$/,
      );
    });
  });

  test('a -32602 for a listed tool (bad arguments) is left as it was, and the list is asked for once', async () => {
    await withClient(counted(3), async (client) => {
      const error = await rejection(client.callTool('tool_0', {}));
      assert.ok(isErrorKind(error, 'rpc'));
      assert.match(error.message, /: x is required$/);
      // The list fetched after that refusal is current: an unknown name next needs no second one.
      const unknown = await rejection(client.callTool('nope', {}));
      assert.match(unknown.message, /; the server has no tool "nope": its tools: tool_0, tool_1, tool_2$/);
      const done = await client.callTool('tool_0', { x: 1 });
      assert.deepEqual(done.content, [{ type: 'text', text: 'lists=1' }]);
    });
  });

  test('server names are bounded: 20 names of 128 characters (the longest kept) are cut to 120', async () => {
    const long = (i: number) => `t${i}_`.padEnd(128, 'very_long_name_');
    const script = `const tools = Array.from({ length: 20 }, (_, i) => ({ name: ('t' + i + '_').padEnd(128, 'very_long_name_'), inputSchema: { type: 'object' } }));
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const send = (x) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...x }) + '\\n');
  if (m.method === 'initialize') return send({ result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'n', version: '1' } } });
  if (m.method === 'tools/list') return send({ result: { tools } });
  send({ error: { code: -32602, message: 'Unknown tool' } });
});`;
    await withClient({ command: process.execPath, args: ['-e', script] }, async (client) => {
      const error = await rejection(client.callTool('nope', {}));
      assert.ok(!error.message.includes(long(0)));
      assert.ok(error.message.length < 20 * 122 + 200, `${error.message.length} characters`);
      // Each name is cut to 120 characters (the redactor may then mask such a long run as a token).
      const names = error.message.slice(error.message.indexOf('its tools: ') + 11).split(', ');
      assert.equal(names.length, 20);
      assert.ok(
        names.every((n) => n.length <= 120 && n.endsWith('…')),
        names[0],
      );
    });
  });

  test('a server that lists no tools says so', async () => {
    await withClient(counted(0), async (client) => {
      const error = await rejection(client.callTool('anything', {}));
      assert.match(error.message, /the server has no tool "anything": the server lists no tools$/);
    });
  });
});

test('validateArguments: the invalid_tool error names the tools of server-everything (SDK v1)', async () => {
  await withClient({ command: process.execPath, args: [EVERYTHING, 'stdio'] }, async (client) => {
    const error = await rejection(client.callTool('ech', {}, { validateArguments: true }));
    assert.equal(error.kind, 'invalid_tool');
    assert.equal(error.delivery, 'not_sent');
    const names = (await client.listTools()).map((t) => t.name);
    assert.ok(names.length <= 20, `${names.length} tools`);
    assert.ok(
      error.message.endsWith(`; did you mean: echo? (its tools: ${names.join(', ')})`),
      error.message,
    );
  });
});
