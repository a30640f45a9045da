/**
 * Large texts of a result cross from the worker thread to its owner as transferred bytes (large-text.ts):
 * lifting never changes the result it reads, every JS string comes back exactly (Latin-1 and UTF-16,
 * lone surrogates included), a forged entry is ignored, and through a real worker the result is the same
 * as the server sent it.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { callTool, close, open } from '../../src/worker/index.js';
import { LIFT_MIN_CHARS, liftLargeText, restoreLargeText } from '../../src/worker/large-text.js';
import { nodeServer, STATE_SERVER } from './helpers.js';

const UNITS = ['x', 'é', '€', '😀', '\ud800'];

function resultOf(text: string): Record<string, unknown> {
  return {
    content: [
      { type: 'text', text },
      { type: 'image', data: text, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'mem://r', text, blob: text } },
      { type: 'text', text: 'small' },
    ],
    contents: [{ uri: 'mem://r', text }],
    structuredContent: { text },
  };
}

describe('large-text lifting', () => {
  test('texts from LIFT_MIN_CHARS up are lifted, smaller ones and structuredContent stay', () => {
    const big = 'x'.repeat(LIFT_MIN_CHARS);
    const lifted = liftLargeText(resultOf(big));
    assert.ok(lifted, 'want the large texts lifted');
    assert.equal(lifted.texts.length, 5);
    assert.equal(lifted.transfer.length, 5);
    const value = lifted.value as ReturnType<typeof resultOf>;
    assert.deepEqual((value['structuredContent'] as { text: string }).text.length, LIFT_MIN_CHARS);
    assert.equal(liftLargeText(resultOf('x'.repeat(LIFT_MIN_CHARS - 1))), undefined);
  });

  test('lifting never changes the result it reads', () => {
    const original = resultOf('é'.repeat(LIFT_MIN_CHARS));
    const copy = structuredClone(original);
    liftLargeText(original);
    assert.deepEqual(original, copy);
  });

  for (const unit of UNITS) {
    test(`every text comes back exactly: ${JSON.stringify(unit)}`, () => {
      const text = `a${unit.repeat(LIFT_MIN_CHARS)}z`;
      const lifted = liftLargeText(resultOf(text));
      assert.ok(lifted);
      const wantEncoding = /[^\u0000-\u00ff]/.test(text) ? 'utf16le' : 'latin1';
      assert.ok(lifted.texts.every((t) => t[4] === wantEncoding));
      // Across a thread the value is a clone and the buffers are moved: do the same here.
      const moved = structuredClone(
        { value: lifted.value, texts: lifted.texts },
        { transfer: lifted.transfer },
      );
      assert.deepEqual(restoreLargeText(moved.value, moved.texts), resultOf(text));
    });
  }

  test('a forged entry is ignored', () => {
    const value = { content: [{ type: 'text', text: '' }] };
    const forged = [
      ['content', 0, false, 'text', 'latin1', 'not bytes'],
      ['content', 0, false, '__proto__', 'latin1', new ArrayBuffer(1)],
      ['other', 0, false, 'text', 'latin1', new ArrayBuffer(1)],
      ['content', 0, false, 'text', 'hex', new ArrayBuffer(1)],
      'nonsense',
    ];
    // biome-ignore lint/suspicious/noExplicitAny: forged on purpose
    assert.deepEqual(restoreLargeText(value, forged as any), { content: [{ type: 'text', text: '' }] });
  });
});

describe('large texts through a real worker', async () => {
  const id = await open(nodeServer(STATE_SERVER));
  after(async () => {
    await close(id).catch(() => {});
  });

  for (const unit of UNITS) {
    test(`a large result arrives as the server sent it: ${JSON.stringify(unit)}`, async () => {
      const times = LIFT_MIN_CHARS + 3;
      const result = await callTool(id, 'repeat', { text: unit, times });
      const text = unit.repeat(times);
      assert.deepEqual(result.content, [
        { type: 'text', text },
        { type: 'image', data: text, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'mem://r', text } },
        { type: 'text', text: 'end' },
      ]);
      assert.deepEqual(result.structuredContent, { chars: text.length });
    });
  }
});
