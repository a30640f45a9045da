/**
 * Property tests of the SSE parser (WHATWG HTML §9.2.6): a generated event stream cut anywhere (between
 * CR and LF, inside a surrogate pair) yields the same events as the whole; any text never throws; and the
 * partial line plus the event being built never exceed `maxEventChars`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type SseItem, SseParser } from '../../src/transport/http/sse.js';
import { cutAt } from '../helpers/chunks.js';
import { RUNS } from './helpers.js';

/** Text without CR or LF (a field value). */
const lineText = fc.string({ unit: 'binary', maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, '_'));
const eol = fc.constantFrom('\n', '\r', '\r\n');

interface Generated {
  event: string | undefined;
  data: string[];
  id: string | undefined;
  comment: boolean;
}
const generatedEvent: fc.Arbitrary<Generated> = fc.record({
  event: fc.option(lineText, { nil: undefined }),
  data: fc.array(lineText, { minLength: 1, maxLength: 4 }),
  id: fc.option(
    lineText.map((s) => s.replace(/\u0000/g, '0')),
    { nil: undefined },
  ),
  comment: fc.boolean(),
});

function serialize(events: Generated[], ends: string[], bom: boolean): string {
  let i = 0;
  let text = bom ? '\ufeff' : '';
  const emit = (line: string) => {
    let end = ends[i++ % ends.length] ?? '\n';
    // A CR then an LF is one line break, so an empty line after a CR-ended line must not start with LF.
    if (line === '' && text.endsWith('\r') && end.startsWith('\n')) end = '\r';
    text += line + end;
  };
  for (const e of events) {
    if (e.comment) emit(': keep-alive');
    if (e.event !== undefined) emit(`event: ${e.event}`);
    if (e.id !== undefined) emit(`id: ${e.id}`);
    for (const line of e.data) emit(`data: ${line}`);
    emit('');
  }
  return text;
}

function expected(events: Generated[]): SseItem[] {
  let lastId = '';
  return events.map((e) => {
    if (e.id !== undefined) lastId = e.id;
    return { type: 'event', event: e.event || 'message', data: e.data.join('\n'), id: lastId };
  });
}

function feedAll(parser: SseParser, chunks: string[]): SseItem[] {
  return chunks.flatMap((chunk) => parser.feed(chunk));
}

describe('SSE parser under arbitrary chunking', () => {
  it('a generated event stream cut anywhere yields exactly its events', () => {
    fc.assert(
      fc.property(
        fc.array(generatedEvent, { maxLength: 8 }),
        fc.array(eol, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        (events, ends, bom, offsets) => {
          const text = serialize(events, ends, bom);
          const got = feedAll(new SseParser({ maxEventChars: 1 << 20 }), cutAt(text, offsets));
          assert.deepEqual(got, expected(events));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any text, cut anywhere, parses the same as when fed whole, and never throws', () => {
    const alphabet = fc.constantFrom(
      '\r',
      '\n',
      ':',
      ' ',
      'data',
      'event',
      'id',
      'retry',
      '1',
      'x',
      'é',
      '\ufeff',
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: alphabet, maxLength: 200 }), fc.string({ maxLength: 200 })),
        fc.array(fc.nat(), { maxLength: 30 }),
        (text, offsets) => {
          const whole = new SseParser({ maxEventChars: 1 << 20 });
          const wholeItems = whole.feed(text);
          const split = new SseParser({ maxEventChars: 1 << 20 });
          assert.deepEqual(feedAll(split, cutAt(text, offsets)), wholeItems);
          assert.equal(split.lastEventId, whole.lastEventId);
          assert.equal(split.retry, whole.retry);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('bounded buffers: the partial line and the event being built never exceed maxEventChars', () => {
    const alphabet = fc.constantFrom('\n', '\r', 'data: ', 'x', 'yy', 'zzzzzzzz', ':', 'event: e');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.string({ unit: alphabet, maxLength: 40 }), { maxLength: 30 }),
        (max, chunks) => {
          const parser = new SseParser({ maxEventChars: max });
          for (const chunk of chunks) {
            for (const item of parser.feed(chunk)) {
              if (item.type === 'event')
                assert.ok(item.data.length <= max, `event data ${item.data.length} > ${max}`);
              else assert.equal(item.code, 'too_large');
            }
            // Internal state, read to prove the bound (TypeScript `private` is not enforced at run time).
            const state = parser as unknown as { line: string; size: number };
            assert.ok(
              state.line.length + state.size <= max,
              `held ${state.line.length + state.size} > ${max}`,
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
