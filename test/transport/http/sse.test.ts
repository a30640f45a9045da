/** Tests for the pure SSE parser (WHATWG HTML "Interpreting an event stream"; S25/basic/transports priming events). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type SseItem, SseParser } from '../../../src/transport/http/sse.js';
import { cutAt } from '../../helpers/chunks.js';

function parseAll(chunks: string[], max = 1 << 20): { items: SseItem[]; parser: SseParser } {
  const parser = new SseParser({ maxEventChars: max });
  const items = chunks.flatMap((chunk) => parser.feed(chunk));
  return { items, parser };
}

const stream =
  ': comment\n\nid: 1\nretry: 500\ndata: \n\nevent: message\ndata: {"a":\ndata: 1}\n\nevent: other\ndata: x\n\ndata:no-space\r\n\r\ndata: cr\r\rfield-without-colon\ndata\n\n';
const expected = [
  { type: 'event', event: 'message', data: '', id: '1' },
  { type: 'event', event: 'message', data: '{"a":\n1}', id: '1' },
  { type: 'event', event: 'other', data: 'x', id: '1' },
  { type: 'event', event: 'message', data: 'no-space', id: '1' },
  { type: 'event', event: 'message', data: 'cr', id: '1' },
  { type: 'event', event: 'message', data: '', id: '1' },
];

test('comments, priming events, multi-line data, event types, retry and all line endings', () => {
  const { items, parser } = parseAll([stream]);
  assert.deepEqual(items, expected);
  assert.equal(parser.retry, 500);
  assert.equal(parser.lastEventId, '1');
});

test('the same stream split into single characters gives the same events', () => {
  assert.deepEqual(parseAll([...stream]).items, expected);
});

test('any split of the stream gives the same events', () => {
  fc.assert(
    fc.property(fc.array(fc.nat(stream.length), { maxLength: 12 }), (cuts) => {
      assert.deepEqual(parseAll(cutAt(stream, cuts)).items, expected);
    }),
  );
});

test('a leading BOM is skipped; an unfinished event at the end is not dispatched', () => {
  assert.deepEqual(parseAll(['\uFEFFdata: a\n\ndata: b\n']).items, [
    { type: 'event', event: 'message', data: 'a', id: '' },
  ]);
});

test('an id with NUL is ignored and an invalid retry keeps the previous one', () => {
  const { parser } = parseAll(['id: ok\nretry: 10\n\nid: bad\u0000\nretry: 1.5\nretry: x\n\n']);
  assert.equal(parser.lastEventId, 'ok');
  assert.equal(parser.retry, 10);
});

test('an oversized event or line is reported as data and skipped; later events still parse', () => {
  const { items } = parseAll([`data: ${'x'.repeat(100)}\n`, 'data: more\n\n', 'data: ok\n\n'], 50);
  assert.equal(items[0]?.type, 'error');
  assert.deepEqual(items.slice(1), [{ type: 'event', event: 'message', data: 'ok', id: '' }]);
  const partial = parseAll(['data: ', 'y'.repeat(60)], 50);
  assert.equal(partial.items[0]?.type, 'error');
});

test('parsing is linear: 20 MB in 1 KB chunks stays fast', () => {
  const parser = new SseParser({ maxEventChars: 1 << 20 });
  const chunk = `data: ${'z'.repeat(1000)}\n\n`;
  const started = performance.now();
  let count = 0;
  for (let i = 0; i < 20_000; i++) count += parser.feed(chunk).length;
  assert.equal(count, 20_000);
  assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
});
