/**
 * What the client answers when a 2025 server sends it requests: ping always; -32601 for every capability
 * not declared; the caller's handler, and the declared capability, when one is given. Server logs reach
 * onLog bounded and redacted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CallToolResult, type ServerLogEntry, withClient } from '../../src/index.js';
import { fixture, textOf } from './helpers.js';

interface Report {
  answers: Record<string, { result?: Record<string, unknown>; error?: { code: number } }>;
  capabilities: Record<string, unknown>;
}

test('without handlers: ping answered, sampling/elicitation/roots get -32601, nothing declared', async () => {
  const logs: ServerLogEntry[] = [];
  const report = await withClient(
    fixture('server-requests.mjs'),
    async (client) => JSON.parse(textOf((await client.callTool('ask')) as CallToolResult)) as Report,
    { onLog: (entry) => logs.push(entry) },
  );
  assert.deepEqual(report.capabilities, {});
  assert.deepEqual(report.answers['ping'], { result: {} });
  for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
    assert.equal(report.answers[method]?.error?.code, -32601, method);
  }
  assert.equal(logs.length, 1);
  assert.equal(logs[0]?.level, 'warning');
  assert.equal(logs[0]?.logger, 'auth');
  assert.doesNotMatch(logs[0]?.data ?? '', /sk-live/);
});

test('with handlers: capabilities declared and each request answered by its handler', async () => {
  const report = await withClient(
    fixture('server-requests.mjs'),
    async (client) => JSON.parse(textOf((await client.callTool('ask')) as CallToolResult)) as Report,
    {
      onElicitation: async (request) => {
        const props = (request.requestedSchema?.['properties'] ?? {}) as Record<string, { default?: string }>;
        return { action: 'accept', content: { name: props['name']?.default ?? '' } };
      },
      onSampling: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'sampled' },
        model: 'test',
      }),
      onListRoots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
    },
  );
  assert.deepEqual(report.capabilities, { elicitation: { form: {} }, sampling: {}, roots: {} });
  assert.deepEqual(report.answers['elicitation/create']?.result, {
    action: 'accept',
    content: { name: 'Ada' },
  });
  assert.equal(
    (report.answers['sampling/createMessage']?.result?.['content'] as { text?: string } | undefined)?.text,
    'sampled',
  );
  assert.deepEqual(report.answers['roots/list']?.result, { roots: [{ uri: 'file:///work', name: 'work' }] });
});
