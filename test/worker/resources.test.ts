/**
 * Resources and prompts through `autos-mcp/worker`, by id, against server-everything over stdio: each
 * operation crosses to the worker's thread and comes back as plain data; errors keep kind and delivery.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isMcpError } from '../../src/errors/index.js';
import {
  close,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  open,
  readResource,
} from '../../src/worker/index.js';
import { EVERYTHING } from '../catalog/helpers.js';

describe('resources and prompts in a worker', () => {
  let id: string;
  before(async () => {
    id = await open({ ...EVERYTHING, protocolVersion: '2025-11-25' });
  });
  after(async () => {
    await close(id);
  });

  test('lists, reads and gets by id', async () => {
    const { resources, excluded } = await listResources(id);
    assert.deepEqual(excluded, []);
    const doc = resources.find((r) => r.mimeType === 'text/markdown');
    assert.ok(doc);
    const read = await readResource(id, doc.uri);
    assert.ok(read.contents[0] && 'text' in read.contents[0]);
    assert.ok((await listResourceTemplates(id)).resourceTemplates.length > 0);
    assert.ok((await listPrompts(id)).prompts.some((p) => p.name === 'args-prompt'));
    const got = await getPrompt(id, 'args-prompt', { city: 'Lyon' });
    assert.ok(got.messages[0]?.content.type === 'text' && got.messages[0].content.text.includes('Lyon'));
  });

  test('refusals before sending, and the server error delivered', async () => {
    await assert.rejects(
      readResource(id, ''),
      (e) => isMcpError(e) && e.kind === 'config' && e.delivery === 'not_sent',
    );
    await assert.rejects(
      getPrompt(id, 'args-prompt', { city: 1 } as unknown as Record<string, string>),
      (e) => isMcpError(e) && e.kind === 'config' && e.delivery === 'not_sent',
    );
    await assert.rejects(getPrompt(id, 'no-such-prompt'), (e) => isMcpError(e) && e.delivery === 'delivered');
  });
});
