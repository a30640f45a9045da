/**
 * A model's tool call run end to end through real servers: the autos-mcp demo server and the official SDK
 * v2 server (examples/demo-server.mjs), one client each. Each format's result shape, `isError` as that
 * API's error, images, namespaced servers, unknown names refused, and the config's `tools` filter and
 * `pin` applying to calls (they apply inside the client).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  anthropicTools,
  collectTools,
  openaiChatTools,
  openaiResponsesTools,
  runAnthropicToolUse,
  runOpenAIChatToolCall,
  runOpenAIResponsesToolCall,
} from '../../src/agents/index.js';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { type Client, connect, isMcpError } from '../../src/index.js';
import { demoServer } from '../client/helpers.js';

let demo: Client;
let sdk: Client;

before(async () => {
  [demo, sdk] = await Promise.all([connect(demoServerCommand()), connect(demoServer())]);
});
after(async () => {
  await Promise.all([demo?.close(), sdk?.close()]);
});

const kind = (want: string) => (error: unknown) => isMcpError(error) && error.kind === want;

test('OpenAI Chat Completions: a tool call runs and answers with a role: tool message', async () => {
  const { tools, names } = openaiChatTools(await demo.listTools());
  assert.ok(tools.some((t) => t.function.name === 'echo'));
  const message = await runOpenAIChatToolCall(demo, names, {
    id: 'call_1',
    type: 'function',
    function: { name: 'echo', arguments: '{"text":"hello"}' },
  });
  assert.deepEqual(message, { role: 'tool', tool_call_id: 'call_1', content: 'hello' });
  const failed = await runOpenAIChatToolCall(demo, names, {
    id: 'call_2',
    function: { name: 'fail', arguments: '{"reason":"no disk"}' },
  });
  assert.equal(failed.role, 'tool');
  assert.match(failed.content, /^Error: .*no disk/);
});

test('OpenAI Responses: a function_call answers with a function_call_output; an image is named, not inlined', async () => {
  const { names } = openaiResponsesTools(await sdk.listTools());
  const output = await runOpenAIResponsesToolCall(sdk, names, {
    type: 'function_call',
    call_id: 'fc_1',
    name: 'echo',
    arguments: JSON.stringify({ text: 'from responses' }),
  });
  assert.deepEqual(output, { type: 'function_call_output', call_id: 'fc_1', output: 'from responses' });
  const image = await runOpenAIResponsesToolCall(sdk, names, {
    type: 'function_call',
    call_id: 'fc_2',
    name: 'image',
    arguments: '{}',
  });
  assert.equal(image.output, '[an image (image/png) the tool returned, not shown]');
});

test('Anthropic: tool_use answers with tool_result; isError is is_error; a PNG stays an image', async () => {
  const { tools, names } = anthropicTools(await demo.listTools());
  assert.ok(tools.every((t) => t.input_schema['type'] === 'object'));
  const ok = await runAnthropicToolUse(demo, names, {
    type: 'tool_use',
    id: 'toolu_1',
    name: 'echo',
    input: { text: 'hi' },
  });
  assert.deepEqual(ok, {
    type: 'tool_result',
    tool_use_id: 'toolu_1',
    content: [{ type: 'text', text: 'hi' }],
    is_error: false,
  });
  const failed = await runAnthropicToolUse(demo, names, {
    type: 'tool_use',
    id: 'toolu_2',
    name: 'fail',
    input: {},
  });
  assert.equal(failed.is_error, true);
  assert.equal(failed.content[0]?.type, 'text');
  const image = await runAnthropicToolUse(demo, names, {
    type: 'tool_use',
    id: 'toolu_3',
    name: 'image',
    input: {},
  });
  const block = image.content[0];
  assert.equal(block?.type, 'image');
  assert.ok(block?.type === 'image' && block.source.media_type === 'image/png');
  assert.ok(
    block?.type === 'image' && Buffer.from(block.source.data, 'base64').subarray(1, 4).toString() === 'PNG',
  );
});

test('two servers with the same tool names, namespaced, each call reaches its own server', async () => {
  const source = await collectTools({ demo, sdk });
  const { tools, names } = anthropicTools(source);
  const given = tools.map((t) => t.name);
  assert.ok(given.includes('demo__echo') && given.includes('sdk__echo'));
  assert.deepEqual(names['sdk__echo'], { server: 'sdk', tool: 'echo' });
  // `confirm` is only on the autos-mcp demo server: the namespace is what tells them apart.
  assert.ok(given.includes('demo__confirm') && !given.includes('sdk__confirm'));
  const clients = { demo, sdk };
  for (const server of ['demo', 'sdk'] as const) {
    const result = await runAnthropicToolUse(clients, names, {
      type: 'tool_use',
      id: server,
      name: `${server}__echo`,
      input: { text: server },
    });
    assert.deepEqual(result.content, [{ type: 'text', text: server }]);
  }
  await assert.rejects(
    runAnthropicToolUse(demo, names, { type: 'tool_use', id: 'x', name: 'demo__echo', input: {} }),
    kind('config'),
  );
});

test('an unknown name is refused with a clear error before anything is sent; or returned as an error result', async () => {
  const { names } = openaiChatTools(await demo.listTools());
  await assert.rejects(
    runOpenAIChatToolCall(demo, names, { id: 'c', function: { name: 'rm_rf', arguments: '{}' } }),
    (error: unknown) =>
      isMcpError(error) &&
      error.kind === 'invalid_tool' &&
      error.delivery === 'not_sent' &&
      error.message === 'the model called the tool "rm_rf", which is not among the tools it was given',
  );
  await assert.rejects(
    runOpenAIChatToolCall(demo, names, { id: 'c', function: { name: 'echo', arguments: '{"text":' } }),
    kind('config'),
  );
  await assert.rejects(
    runOpenAIChatToolCall(demo, names, { id: 'c', function: { name: 'echo', arguments: '[1]' } }),
    kind('config'),
  );
  const asResult = await runAnthropicToolUse(
    demo,
    anthropicTools(await demo.listTools()).names,
    { type: 'tool_use', id: 't', name: 'rm_rf', input: {} },
    { errorsAsResults: true },
  );
  assert.equal(asResult.is_error, true);
  assert.match((asResult.content[0] as { text: string }).text, /not among the tools it was given/);
});

test("the config's tools filter and pins apply: definitions leave the tools out, calls to them are refused", async () => {
  // Names from an earlier, unfiltered list: the model may still call a tool the config now refuses.
  const { names } = openaiChatTools(await demo.listTools());
  const filtered = await connect({
    ...demoServerCommand(),
    tools: { deny: ['fail'] },
    pin: { echo: `sha256:${'0'.repeat(64)}` },
  });
  try {
    const listed = openaiChatTools(await filtered.listTools()).tools.map((t) => t.function.name);
    assert.ok(!listed.includes('fail') && !listed.includes('echo') && listed.includes('image'));
    await assert.rejects(
      runOpenAIChatToolCall(filtered, names, { id: 'a', function: { name: 'fail', arguments: '{}' } }),
      (error: unknown) => isMcpError(error) && error.kind === 'invalid_tool' && error.delivery === 'not_sent',
    );
    await assert.rejects(
      runOpenAIChatToolCall(filtered, names, {
        id: 'b',
        function: { name: 'echo', arguments: '{"text":"x"}' },
      }),
      (error: unknown) => isMcpError(error) && error.kind === 'tool_changed' && error.delivery === 'not_sent',
    );
  } finally {
    await filtered.close();
  }
});
