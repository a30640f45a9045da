/**
 * Resources and prompts against real peers: server-everything over stdio (2025-11-25), and a hostile
 * fixture that paginates forever, repeats a cursor and sends malformed entries.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, connect, McpError, session } from '../../src/index.js';
import { EVERYTHING, ROOT } from '../catalog/helpers.js';

const MODERN = {
  command: process.execPath,
  args: [path.join(ROOT, 'test/fixtures/modern-resources.mjs')],
  protocolVersion: '2026-07-28' as const,
};
const HOSTILE = { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/hostile-resources.mjs')] };

describe('resources and prompts on server-everything (2025-11-25)', () => {
  let client: Client;
  before(async () => {
    client = await connect({ ...EVERYTHING, protocolVersion: '2025-11-25' });
  });
  after(async () => {
    await client.close();
  });

  it('lists resources and templates, and reads text and blob contents', async () => {
    const { resources, excluded } = await client.listResources();
    assert.deepEqual(excluded, []);
    assert.ok(resources.length > 0);
    const doc = resources.find((r) => r.mimeType === 'text/markdown');
    assert.ok(doc, 'a markdown resource');
    const read = await client.readResource(doc.uri);
    assert.equal(read.excluded.length, 0);
    const first = read.contents[0];
    assert.ok(first && 'text' in first && first.text.length > 0);
    const { resourceTemplates } = await client.listResourceTemplates();
    const blobTemplate = resourceTemplates.find((t) => t.uriTemplate.includes('/blob/'));
    assert.ok(blobTemplate, 'a blob template');
    const blob = await client.readResource(blobTemplate.uriTemplate.replace('{resourceId}', '1'));
    const part = blob.contents[0];
    assert.ok(part && 'blob' in part && part.blob.length > 0);
  });

  it('lists prompts and gets one with arguments', async () => {
    const { prompts, excluded } = await client.listPrompts();
    assert.deepEqual(excluded, []);
    const args = prompts.find((p) => p.name === 'args-prompt');
    assert.deepEqual(
      args?.arguments?.map((a) => a.name),
      ['city', 'state'],
    );
    const got = await client.getPrompt('args-prompt', { city: 'Lyon' });
    assert.equal(got.excluded.length, 0);
    const message = got.messages[0];
    assert.equal(message?.role, 'user');
    assert.ok(message?.content.type === 'text' && message.content.text.includes('Lyon'));
  });

  it('an unknown prompt is an rpc error, delivered; bad arguments are refused before sending', async () => {
    await assert.rejects(client.getPrompt('no-such-prompt'), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.delivery, 'delivered');
      return true;
    });
    await assert.rejects(
      client.getPrompt('args-prompt', { city: 3 } as unknown as Record<string, string>),
      (error: unknown) =>
        error instanceof McpError && error.kind === 'config' && error.delivery === 'not_sent',
    );
    await assert.rejects(
      client.readResource(''),
      (error: unknown) =>
        error instanceof McpError && error.kind === 'config' && error.delivery === 'not_sent',
    );
  });

  it('honours an aborted signal: cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      client.listResources({ signal: controller.signal }),
      (error: unknown) => error instanceof McpError && error.kind === 'cancelled',
    );
  });

  it('a Session connects on first use and delegates', async () => {
    const lazy = session({ ...EVERYTHING, protocolVersion: '2025-11-25' });
    try {
      assert.equal(lazy.started, false);
      const { prompts } = await lazy.listPrompts();
      assert.ok(prompts.some((p) => p.name === 'simple-prompt'));
      const simple = await lazy.getPrompt('simple-prompt');
      assert.ok(simple.messages.length > 0);
      const { resources } = await lazy.listResources();
      const first = resources[0];
      assert.ok(first);
      assert.equal((await lazy.readResource(first.uri)).contents[0]?.uri, first.uri);
      assert.ok((await lazy.listResourceTemplates()).resourceTemplates.length > 0);
    } finally {
      await lazy.close();
    }
  });
});

describe('resources and prompts from a hostile server', () => {
  let client: Client;
  before(async () => {
    client = await connect(HOSTILE);
  });
  after(async () => {
    await client.close();
  });

  it('endless pagination stops at maxPages with a clear error', async () => {
    await assert.rejects(client.listResources({ maxPages: 5 }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.kind, 'protocol');
      assert.equal(error.delivery, 'delivered');
      assert.match(error.message, /resources\/list on .*: more than 5 pages/);
      return true;
    });
    // The default bound (100 pages) holds too.
    await assert.rejects(client.listResources(), /more than 100 pages/);
  });

  it('a repeated cursor is a pagination loop', async () => {
    await assert.rejects(client.listResourceTemplates(), /resources\/templates\/list on .*repeated a cursor/);
  });

  it('malformed prompts are left out with a reason; good ones kept as data', async () => {
    const { prompts, excluded } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['good'],
    );
    assert.deepEqual(excluded, [
      { name: '(entry 2)', reason: 'name is missing or not a string' },
      { name: '(entry 3)', reason: 'the entry is not an object' },
      { name: 'bad-args', reason: 'arguments is not an array' },
    ]);
  });

  it('timeoutMs is honoured: a prompt that never comes is a timeout that may have run', async () => {
    await assert.rejects(client.getPrompt('hang', {}, { timeoutMs: 150 }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.kind, 'timeout');
      assert.equal(error.delivery, 'unknown');
      return true;
    });
  });

  it('malformed contents and messages are left out; an unknown block is UnknownContent', async () => {
    const read = await client.readResource('x://r/1');
    assert.equal(read.contents.length, 2);
    assert.deepEqual(
      read.excluded.map((e) => e.reason),
      ['resource has neither text nor blob', 'resource.uri is not a string'],
    );
    const got = await client.getPrompt('any', { who: 'me' });
    assert.equal(got.messages.length, 2);
    assert.equal(got.messages[1]?.content.type, 'unknown');
    assert.deepEqual(
      got.excluded.map((e) => e.reason),
      ['role is not user or assistant', 'the message is not an object'],
    );
  });
});

describe('resources and prompts at 2026-07-28', () => {
  it('follows an empty-string cursor, reads through MRTR with a handler, gets a prompt', async () => {
    const client = await connect(MODERN, {
      onElicitation: async () => ({ action: 'accept', content: {} }),
    });
    try {
      assert.equal(client.protocolVersion, '2026-07-28');
      const { resources } = await client.listResources();
      assert.deepEqual(
        resources.map((r) => r.uri),
        ['plain://a', 'secret://note'],
      );
      assert.equal((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate, 'plain://{id}');
      const secret = await client.readResource('secret://note');
      assert.deepEqual(secret.contents, [{ uri: 'secret://note', text: 'accept:read-1' }]);
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['greet'],
      );
      const got = await client.getPrompt('greet', { who: 'Ada' });
      assert.ok(got.messages[0]?.content.type === 'text' && got.messages[0].content.text === 'Hello Ada');
    } finally {
      await client.close();
    }
  });

  it('input_required without a handler is a delivered protocol error, not a half result', async () => {
    const client = await connect(MODERN);
    try {
      await assert.rejects(client.readResource('secret://note'), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.kind, 'protocol');
        assert.equal(error.delivery, 'delivered');
        assert.match(error.message, /asked for input \(input_required\)/);
        return true;
      });
      assert.equal((await client.readResource('plain://b')).contents.length, 1);
    } finally {
      await client.close();
    }
  });
});
