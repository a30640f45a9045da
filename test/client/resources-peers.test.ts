/**
 * Resources and prompts against real peers over Streamable HTTP and against the official SDK v2 server
 * (test/fixtures/sdk-v2-server.mjs: a resource, a template and a prompt) over stdio and HTTP at both
 * revisions; server-everything (SDK v1, 2025-11-25 only) over HTTP. The stdio runs of server-everything and
 * the hostile fixtures are in resources.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Client, connect, McpError, session } from '../../src/index.js';
import {
  type FixtureTarget,
  fixtureTarget,
  freePort,
  type RunningServer,
  startServer,
} from './http-servers.js';

const FIXTURE = 'test/fixtures/sdk-v2-server.mjs';
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;

for (const transport of ['stdio', 'http'] as const) {
  describe(`resources and prompts on the official SDK v2 server over ${transport}`, () => {
    let target: FixtureTarget;
    before(async () => {
      target = await fixtureTarget(FIXTURE, transport);
    });
    after(() => target.stop());

    for (const revision of REVISIONS) {
      describe(revision, () => {
        let client: Client;
        before(async () => {
          client = await connect({ ...target.config, protocolVersion: revision });
        });
        after(async () => {
          await client.close();
        });

        it('lists the resource and the template, reads both', async () => {
          assert.equal(client.protocolVersion, revision);
          const { resources, excluded } = await client.listResources();
          assert.deepEqual(excluded, []);
          assert.deepEqual(resources, [
            {
              uri: 'note://readme',
              name: 'readme',
              title: 'Read me',
              description: 'A text note.',
              mimeType: 'text/plain',
            },
          ]);
          const { resourceTemplates } = await client.listResourceTemplates();
          assert.deepEqual(resourceTemplates, [
            {
              name: 'item',
              uriTemplate: 'note://items/{id}',
              description: 'An item by id.',
              mimeType: 'application/json',
            },
          ]);
          const readme = await client.readResource('note://readme');
          assert.deepEqual(readme.contents, [
            { uri: 'note://readme', mimeType: 'text/plain', text: 'hello from the SDK' },
          ]);
          assert.deepEqual(readme.excluded, []);
          const item = await client.readResource('note://items/7');
          assert.deepEqual(item.contents, [
            { uri: 'note://items/7', mimeType: 'application/json', text: '{"id":"7"}' },
          ]);
        });

        it('lists the prompt with its argument and gets it', async () => {
          const { prompts, excluded } = await client.listPrompts();
          assert.deepEqual(excluded, []);
          assert.deepEqual(prompts, [
            {
              name: 'greet',
              description: 'Greets someone.',
              arguments: [{ name: 'name', description: 'Who to greet', required: true }],
            },
          ]);
          const got = await client.getPrompt('greet', { name: 'Ada' });
          assert.deepEqual(got.messages, [
            { role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } },
          ]);
          assert.deepEqual(got.excluded, []);
        });

        it('an unknown resource, an unknown prompt and a missing argument are rpc errors, delivered', async () => {
          for (const attempt of [
            () => client.readResource('note://nothing-here'),
            () => client.getPrompt('no-such-prompt'),
            () => client.getPrompt('greet'),
          ]) {
            await assert.rejects(attempt(), (error: unknown) => {
              assert.ok(error instanceof McpError, String(error));
              assert.equal(error.kind, 'rpc', error.message);
              assert.equal(error.delivery, 'delivered');
              return true;
            });
          }
        });

        it('a URI and an argument outside ASCII travel (on 2026 HTTP, Mcp-Name in its Base64 form)', async () => {
          const read = await client.readResource('note://items/café');
          // The SDK answers with the URI as WHATWG URL parsing spells it.
          assert.deepEqual(read.contents, [
            { uri: 'note://items/caf%C3%A9', mimeType: 'application/json', text: '{"id":"caf%C3%A9"}' },
          ]);
          const got = await client.getPrompt('greet', { name: 'Zoë 日本' });
          assert.deepEqual(got.messages[0]?.content, { type: 'text', text: 'Say hello to Zoë 日本.' });
        });

        it('a Session does the same through connect-on-first-use', async () => {
          const lazy = session({ ...target.config, protocolVersion: revision });
          try {
            assert.equal((await lazy.readResource('note://items/x')).contents[0]?.uri, 'note://items/x');
            assert.equal((await lazy.listPrompts()).prompts[0]?.name, 'greet');
          } finally {
            await lazy.close();
          }
        });
      });
    }
  });
}

describe('resources and prompts on server-everything over Streamable HTTP (2025-11-25)', () => {
  let everything: RunningServer;
  let client: Client;
  before(async () => {
    const port = await freePort();
    everything = await startServer(
      'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      ['streamableHttp'],
      (line) => (/listening on port/.test(line) ? `http://127.0.0.1:${port}/mcp` : undefined),
      { PORT: String(port) },
    );
    client = await connect({ url: everything.url });
  });
  after(async () => {
    await client?.close();
    await everything?.stop();
  });

  it('lists resources and templates, reads text and blob contents, gets a prompt', async () => {
    assert.equal(client.protocolVersion, '2025-11-25');
    const { resources, excluded } = await client.listResources();
    assert.deepEqual(excluded, []);
    const doc = resources.find((r) => r.mimeType === 'text/markdown');
    assert.ok(doc, 'a markdown resource');
    const text = (await client.readResource(doc.uri)).contents[0];
    assert.ok(text && 'text' in text && text.text.length > 0);
    const blobTemplate = (await client.listResourceTemplates()).resourceTemplates.find((t) =>
      t.uriTemplate.includes('/blob/'),
    );
    assert.ok(blobTemplate, 'a blob template');
    const blob = (await client.readResource(blobTemplate.uriTemplate.replace('{resourceId}', '1')))
      .contents[0];
    assert.ok(blob && 'blob' in blob && Buffer.from(blob.blob, 'base64').length > 0);
    const got = await client.getPrompt('args-prompt', { city: 'Lyon' });
    const message = got.messages[0];
    assert.ok(message?.content.type === 'text' && message.content.text.includes('Lyon'));
  });
});
