/**
 * `textOf` and `structuredOf`: the text blocks of a result joined in order (other blocks skipped, the
 * separator yours), the structured content as given; on plain results, on `prepare()`'s output, and on a
 * real result from the demo server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prepare, structuredOf, textOf } from '../../src/content/index.js';
import { type CallToolResult, isInputRequired, withClient } from '../../src/index.js';
import { demoServer } from '../client/helpers.js';

const result: CallToolResult = {
  content: [
    { type: 'text', text: 'one' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'unknown', block: { type: 'text', text: 5 }, reason: 'text block: text is not a string' },
    { type: 'resource', resource: { uri: 'mem://a', text: 'not a text block' } },
    { type: 'text', text: 'two' },
  ],
  structuredContent: { rows: [1, 2] },
};

describe('textOf', () => {
  test('joins the text blocks in order, skipping every other block', () => {
    assert.equal(textOf(result), 'one\ntwo');
    assert.equal(textOf(result, ''), 'onetwo');
    assert.equal(textOf({ content: [] }), '');
  });

  test("works on prepare()'s output, whose moved blocks are skipped", async () => {
    const prepared = await prepare(result, { maxInlineBytes: 100 });
    assert.equal(textOf(prepared), 'one\ntwo');
  });

  test('reads a real result: the demo echo', async () => {
    const text = await withClient(demoServer(), async (client) => {
      // demoServer() is typed StdioServerConfig, which may say 2026: the union, told apart first.
      const result = await client.callTool('echo', { text: 'hi' });
      return isInputRequired(result) ? 'input required' : textOf(result);
    });
    assert.equal(text, 'hi');
  });
});

describe('structuredOf', () => {
  test('is the structuredContent, the same value, or undefined', () => {
    assert.equal(structuredOf<{ rows: number[] }>(result), result.structuredContent);
    assert.deepEqual(structuredOf<{ rows: number[] }>(result)?.rows, [1, 2]);
    assert.equal(structuredOf({ content: [] }), undefined);
  });
});
