import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LineDecoder } from '../../../src/transport/stdio/framing.js';
import { cutAt } from '../../helpers/chunks.js';
import { must } from '../../helpers/must.js';

function decodeAll(decoder: LineDecoder, chunks: Buffer[]) {
  const values: unknown[] = [];
  for (const chunk of chunks) {
    const r = decoder.feed(chunk);
    values.push(...r.values);
    if (r.error) return { values, error: r.error };
  }
  return { values, error: undefined };
}

describe('LineDecoder', () => {
  it('decodes the same values however the byte stream is chunked (LF and CRLF, multi-byte UTF-8)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.jsonValue(), fc.string({ unit: 'grapheme' }), fc.constant('é😀中\u2028')), {
          maxLength: 8,
        }),
        fc.array(fc.boolean(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (values, crlf, cuts) => {
          const text = values.map((v, i) => JSON.stringify(v) + (crlf[i] ? '\r\n' : '\n')).join('');
          const { values: got, error } = decodeAll(new LineDecoder(1 << 20), cutAt(Buffer.from(text), cuts));
          assert.equal(error, undefined);
          assert.deepEqual(got, JSON.parse(JSON.stringify(values)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes 1-byte chunks, including a 4-byte UTF-8 character split across them', () => {
    const bytes = Buffer.from('{"a":"😀é"}\r\n\n  \n[1,2]\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    assert.deepEqual(decodeAll(new LineDecoder(100), chunks).values, [{ a: '😀é' }, [1, 2]]);
  });

  it('keeps an unterminated line until its newline arrives', () => {
    const decoder = new LineDecoder(100);
    assert.deepEqual(decoder.feed(Buffer.from('{"a":')).values, []);
    assert.equal(decoder.bufferedBytes, 5);
    assert.deepEqual(decoder.feed(Buffer.from('1}\n')).values, [{ a: 1 }]);
    assert.equal(decoder.bufferedBytes, 0);
  });

  it('accepts a line of exactly maxMessageBytes, with or without CR', () => {
    const line = JSON.stringify('x'.repeat(98)); // 100 bytes
    assert.deepEqual(new LineDecoder(100).feed(Buffer.from(`${line}\n`)).values, ['x'.repeat(98)]);
    const d = new LineDecoder(100);
    assert.deepEqual(decodeAll(d, [Buffer.from(line), Buffer.from('\r'), Buffer.from('\n')]).values, [
      'x'.repeat(98),
    ]);
  });

  it('fails with too_large as soon as a line crosses the limit, without buffering past it', () => {
    const decoder = new LineDecoder(1000);
    assert.deepEqual(decoder.feed(Buffer.from('[1]\n')).values, [[1]]);
    assert.equal(decoder.feed(Buffer.alloc(600, 0x61)).error, undefined);
    const r = decoder.feed(Buffer.alloc(600, 0x61));
    assert.equal(r.error?.type, 'too_large');
    assert.equal(decoder.bufferedBytes, 0);
    assert.deepEqual(decoder.feed(Buffer.from('[2]\n')), { values: [] }, 'a failed decoder stays dead');
  });

  it('skips a line that is not JSON and goes on with the next', () => {
    const r = new LineDecoder(100).feed(Buffer.from('{"ok":true}\nnot json at all\n{"next":1}\n'));
    assert.deepEqual(r.values, [{ ok: true }, { next: 1 }]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.skipped, [{ bytes: 15, preview: '"not json at all"' }]);
  });

  it('skips JSON the accept check turns down, like a line that is not JSON', () => {
    const decoder = new LineDecoder(100, (v) => typeof v === 'object' && v !== null && 'jsonrpc' in v);
    const r = decoder.feed(Buffer.from('{"level":30,"msg":"log"}\n{"jsonrpc":"2.0","method":"x"}\n'));
    assert.deepEqual(r.values, [{ jsonrpc: '2.0', method: 'x' }]);
    assert.equal(r.skipped?.length, 1);
    assert.match(r.skipped?.[0]?.preview ?? '', /level/);
  });

  it('previews a skipped line clipped to about 80 characters, redacted, without control characters', () => {
    const line = `Authorization: Bearer abcdefghijklmnop \u001b[31m\u202e ${'z'.repeat(500)}`;
    const r = new LineDecoder(10_000).feed(Buffer.from(`${line}\n`));
    const { preview, bytes } = must(r.skipped?.[0], 'the skipped line');
    assert.equal(bytes, Buffer.byteLength(line));
    assert.doesNotMatch(preview, /abcdefghijklmnop/);
    assert.doesNotMatch(preview, /[\u001b\u202e]/);
    assert.ok(preview.length < 100, `got ${preview.length} chars`);
  });

  it('removes a UTF-8 byte-order mark before the first line only, also when it arrives split', () => {
    const decoder = new LineDecoder(100);
    assert.deepEqual(decoder.feed(Buffer.from([0xef, 0xbb])).values, []);
    const r = decoder.feed(Buffer.concat([Buffer.from([0xbf]), Buffer.from('{"a":1}\n\uFEFF{"b":2}\n')]));
    assert.deepEqual(r.values, [{ a: 1 }], 'a mark before a later line is not a byte-order mark');
    assert.equal(r.skipped?.length, 1);
  });

  it('ignores empty and whitespace-only lines', () => {
    assert.deepEqual(new LineDecoder(100).feed(Buffer.from('\n\r\n \t\n1\n')).values, [1]);
  });

  for (const mib of [8, 64]) {
    it(`decodes a single ${mib} MiB line fed in 64 KiB chunks with one concatenation`, (t) => {
      const payload = 'y'.repeat(mib * 1024 * 1024 - 2);
      const bytes = Buffer.from(`${JSON.stringify(payload)}\n`);
      const decoder = new LineDecoder(mib * 1024 * 1024);
      const values: unknown[] = [];
      const started = performance.now();
      for (let i = 0; i < bytes.length; i += 65536)
        values.push(...decoder.feed(bytes.subarray(i, i + 65536)).values);
      const ms = performance.now() - started;
      assert.equal(values.length, 1);
      assert.equal((values[0] as string).length, payload.length);
      // Linearity: the buffer is joined once per line, never per chunk (a quadratic decoder joins ~1000×).
      assert.equal(decoder.concatCount, 1);
      t.diagnostic(`${mib} MiB line: ${ms.toFixed(0)} ms`);
    });
  }
});
