/**
 * Property tests of the stdio line decoder: any sequence of JSON lines (multi-byte UTF-8, CRLF, blank
 * lines between) cut into chunks at any byte offsets — including inside a UTF-8 sequence or between the
 * CR and LF — decodes to exactly the messages, in order (S25/basic/transports: newline-delimited JSON).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LineDecoder } from '../../src/transport/stdio/framing.js';
import { cutAt } from '../helpers/chunks.js';
import { RUNS } from './helpers.js';

const terminator = fc.constantFrom('\n', '\r\n');
const blank = fc.constantFrom('', '', '', '\n', '\r\n', '  \n', '\t\r\n');
const json = fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 });

function decodeAll(chunks: Buffer[], maxLineBytes = 1 << 24) {
  const decoder = new LineDecoder(maxLineBytes);
  const values: unknown[] = [];
  for (const chunk of chunks) {
    const result = decoder.feed(chunk);
    values.push(...result.values);
    if (result.error) return { values, error: result.error, decoder };
  }
  return { values, error: undefined, decoder };
}

describe('stdio framing under arbitrary chunking', () => {
  it('any split of any sequence of JSON lines yields exactly the messages, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(json, terminator, blank), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (lines, offsets) => {
          const text = lines.map(([value, end, gap]) => `${gap}${JSON.stringify(value)}${end}`).join('');
          const { values, error } = decodeAll(cutAt(Buffer.from(text, 'utf8'), offsets));
          assert.equal(error, undefined);
          // JSON.stringify then parse is the identity on the wire form (it turns -0 into 0).
          assert.deepEqual(
            values,
            lines.map(([value]) => JSON.parse(JSON.stringify(value))),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('one-byte chunks decode the same as one chunk (every UTF-8 sequence split)', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 5 }), terminator, (items, end) => {
        const bytes = Buffer.from(items.map((v) => JSON.stringify(v) + end).join(''), 'utf8');
        const whole = decodeAll([bytes]).values;
        const single = decodeAll([...bytes].map((b) => Buffer.from([b]))).values;
        assert.deepEqual(single, whole);
        assert.equal(whole.length, items.length);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('a line over the limit fails with too_large under any chunking, holding at most limit+1 bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (limit, extra, offsets) => {
          const line = `"${'é'.repeat(limit + extra)}"\n`;
          const decoder = new LineDecoder(limit);
          let error: unknown;
          for (const chunk of cutAt(Buffer.from(line, 'utf8'), offsets)) {
            const result = decoder.feed(chunk);
            assert.ok(decoder.bufferedBytes <= limit + 1, `buffered ${decoder.bufferedBytes} > ${limit + 1}`);
            assert.deepEqual(result.values, []);
            if (result.error) {
              error = result.error;
              break;
            }
          }
          assert.equal((error as { type?: string } | undefined)?.type, 'too_large');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('arbitrary bytes never throw: the decoder returns values and at most one error, then stays dead', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 10 }), (chunks) => {
        const decoder = new LineDecoder(256);
        let dead = false;
        for (const chunk of chunks) {
          const result = decoder.feed(chunk);
          if (dead) assert.deepEqual({ ...result }, { values: [] });
          if (result.error) {
            dead = true;
            assert.ok(result.error.message.length < 200, 'error messages stay short');
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
