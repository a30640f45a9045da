/**
 * The Vercel AI SDK adapter, run as an application runs it: `generateText` with the SDK's own test model
 * (`MockLanguageModelV3` from `ai/test`), which emits a tool call; the adapter's tool runs it against the
 * real demo server, and the tool result goes back to the model in the next step.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { aiTools } from '../../src/agents/ai/index.js';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { type Client, connect } from '../../src/index.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCall(toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const done: GenerateResult = {
  content: [{ type: 'text', text: 'done' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

/** What the model was given back for its tool call, in the second step's prompt. */
function toolOutputs(call: CallOptions | undefined): unknown[] {
  return (call?.prompt ?? [])
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content)
    .map((part) => (part.type === 'tool-result' ? part.output : part));
}

let demo: Client;
before(async () => {
  demo = await connect(demoServerCommand());
});
after(async () => {
  await demo?.close();
});

test('generateText with the SDK test model calls a real server tool through the adapter and the result reaches the model', async () => {
  const { tools, names } = await aiTools({ demo });
  const model = new MockLanguageModelV3({
    doGenerate: [toolCall('demo__echo', { text: 'hello from MCP' }), done],
  });
  const result = await generateText({ model, tools, prompt: 'say hello', stopWhen: stepCountIs(3) });
  assert.equal(result.text, 'done');
  assert.deepEqual(names['demo__echo'], { server: 'demo', tool: 'echo' });
  // The tools the model was offered: namespaced names, JSON Schema parameters, the server's description.
  const offered = model.doGenerateCalls[0]?.tools ?? [];
  const echo = offered.find((t) => t.name === 'demo__echo');
  assert.equal(echo?.type, 'function');
  assert.ok(echo?.type === 'function' && echo.description === 'Returns its text argument unchanged.');
  assert.ok(
    echo?.type === 'function' && (echo.inputSchema as { required?: string[] }).required?.includes('text'),
  );
  // The step's tool result is the server's CallToolResult; the model got its text.
  const toolResult = result.steps[0]?.toolResults[0];
  assert.deepEqual((toolResult?.output as { content?: unknown[] } | undefined)?.content, [
    { type: 'text', text: 'hello from MCP' },
  ]);
  assert.deepEqual(toolOutputs(model.doGenerateCalls[1]), [
    { type: 'content', value: [{ type: 'text', text: 'hello from MCP' }] },
  ]);
});

test('an isError result goes back to the model as an error; an image as image data', async () => {
  const { tools } = await aiTools(demo);
  const model = new MockLanguageModelV3({
    doGenerate: [toolCall('fail', { reason: 'disk full' }), toolCall('image', {}), done],
  });
  await generateText({ model, tools, prompt: 'x', stopWhen: stepCountIs(4) });
  const [failed] = toolOutputs(model.doGenerateCalls[1]) as { type: string; value: string }[];
  assert.equal(failed?.type, 'error-text');
  assert.match(failed?.value ?? '', /disk full/);
  const outputs = toolOutputs(model.doGenerateCalls[2]) as {
    type: string;
    value: { type: string; mediaType?: string }[];
  }[];
  const image = outputs.at(-1);
  assert.equal(image?.type, 'content');
  assert.equal(image?.value[0]?.type, 'image-data');
  assert.equal(image?.value[0]?.mediaType, 'image/png');
});

test('a tool the config denies is not offered to the model', async () => {
  const filtered = await connect({ ...demoServerCommand(), tools: { allow: ['echo'] } });
  try {
    const { tools } = await aiTools(filtered);
    assert.deepEqual(Object.keys(tools), ['echo']);
  } finally {
    await filtered.close();
  }
});
