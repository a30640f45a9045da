/**
 * Property tests (a fuzzer) of what handles hostile server text. The redactor: a planted secret never
 * shows, whole or in part, wherever a bound cuts the text; a bounded result is bounded and stable. The
 * stdio line decoder: any chunking of the same bytes gives the same values, skipped lines and error, and a
 * line over the limit always fails as too_large.
 *
 * By default a fixed seed and a few hundred runs, so `npm test` is fast and deterministic. `npm run fuzz`
 * sets AUTOS_MCP_FUZZ_RUNS=20000 and uses a fresh seed (printed; set AUTOS_MCP_FUZZ_SEED to replay one).
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import fc from 'fast-check';
import { redactStable } from '../../src/errors/data.js';
import { redact } from '../../src/internal/redact.js';
import { type FeedResult, LineDecoder } from '../../src/transport/stdio/framing.js';
import { cutAt } from '../helpers/chunks.js';

const fuzzRuns = Number(process.env['AUTOS_MCP_FUZZ_RUNS']);
const FUZZING = Number.isSafeInteger(fuzzRuns) && fuzzRuns > 0;
const envSeed = Number(process.env['AUTOS_MCP_FUZZ_SEED']);
const SEED = Number.isSafeInteger(envSeed) ? envSeed : FUZZING ? Date.now() % 2 ** 31 : 20260728;
const RUNS = FUZZING ? fuzzRuns : 200;

/** Runs `property` with the suite's seed and number of runs, and prints both. */
function check<T>(t: TestContext, property: fc.IRawProperty<T>): void {
  t.diagnostic(`seed ${SEED}, ${RUNS} runs`);
  fc.assert(property, { seed: SEED, numRuns: RUNS });
}

/** How much is looked at past a bound (`CUT_MARGIN` in src/internal/redact.ts): cuts fall this far in. */
const CUT_MARGIN = 512;
/** The shortest piece of a secret that counts as showing it. */
const PIECE = 6;

/** Secrets (from an alphabet apart from the separators, so that the pieces of one are easy to tell). */
const secret = fc.stringMatching(/^[b-yB-Y2-8]{12,40}$/);
/** Opaque keys: 32+ characters mixing letters and digits (masked by the long-opaque-string rule alone). */
const opaqueKey = fc.stringMatching(/^[b-yB-Y2-8]{30,44}$/).map((s) => `${s}7k`);

/** Credential forms: where `x` stands, the secret. */
const FORMS: ReadonlyArray<readonly [string, (x: string) => string]> = [
  ['Bearer X', (x) => `Bearer ${x}`],
  ['bearer\\nX', (x) => `bearer\n${x}`],
  ['Basic X==', (x) => `Basic ${x}==`],
  ['Authorization: X Y', (x) => `Authorization: ${x} ${x.slice(0, 8)}`],
  ['Proxy-Authorization: Bearer X', (x) => `Proxy-Authorization: Bearer ${x}`],
  ['token=X', (x) => `token=${x}`],
  ['token = X', (x) => `token = ${x}`],
  ['--password=X', (x) => `--password=${x}`],
  ['access_token=X&', (x) => `/cb?state=1&access_token=${x}&x=1`],
  ['code=X', (x) => `redirect?code=${x}&state=s`],
  ['"api_key":"X"', (x) => `"api_key":"${x}"`],
  ['"client_secret": "X with spaces"', (x) => `{"client_secret": "${x} and ${x.slice(2, 10)}", "n": 1}`],
  ["'api_key': 'X'", (x) => `{'api_key': '${x}'}`],
  ['api_key: "X"', (x) => `api_key: "${x}"`],
  ['https://u:X@h', (x) => `https://user:${x}@db.example.com/x`],
  ['JWT', (x) => `eyJ${x}.eyJ${x.slice(0, 6)}.${x}`],
];

/** Short text around: arbitrary Unicode, and prose-like text with separators. */
const around = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom(' ', '\n', ',', '.', ':', '=', 'a', 'Z', '9', '"', '/', '-', 'é', '😀', 'word '),
    maxLength: 30,
  }),
);
/**
 * Padding of 600–1500 characters (a short text repeated), more than `CUT_MARGIN`: a bound can then cut
 * anywhere in what it pads, from the start or from the end. Some padding is masked (opaque keys, tokens),
 * so that it shrinks and what is shown reaches the cut.
 */
const padding = fc
  .tuple(
    fc.oneof(
      around,
      fc.constantFrom(
        'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7 ',
        'token=zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz&',
        'x Bearer abcdefghijklmnopqrst\n',
      ),
    ),
    fc.noBias(fc.integer({ min: CUT_MARGIN + 88, max: 1500 })),
  )
  .map(([unit, n]) => (unit === '' ? ' ' : unit).repeat(Math.ceil(n / Math.max(1, unit.length))).slice(0, n));
const separator = fc.constantFrom(' ', '\n', '\t', ' (', ', ', '; ', '\r\n');
const keep = fc.constantFrom('start' as const, 'end' as const);

/**
 * The pieces of `x` (`PIECE` characters) that `out` shows, leaving out those the text around the secret
 * (`outside`: the text with every character of the secret replaced) has too: the generators may well
 * make padding of the secret's characters.
 */
function shownPieces(out: string, x: string, outside: string): string[] {
  const shown: string[] = [];
  for (let i = 0; i + PIECE <= x.length; i++) {
    const piece = x.slice(i, i + PIECE);
    if (out.includes(piece) && !outside.includes(piece)) shown.push(piece);
  }
  return shown;
}

const HIDDEN = '\u0000';

describe('redact never shows a planted secret, whole or in part, wherever a bound cuts the text', () => {
  for (const [label, form] of FORMS) {
    it(`in the form ${label}`, (t) => {
      check(
        t,
        fc.property(
          padding,
          separator,
          secret,
          separator,
          padding,
          keep,
          fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.constant(-1)),
          fc.nat(),
          (before, sep1, x, sep2, after, side, bound, at) => {
            const planted = form(x);
            const text = `${before}${sep1}${planted}${sep2}${after}`;
            const outside = `${before}${sep1}${form(HIDDEN.repeat(x.length))}${sep2}${after}`;
            const whole = redact(text);
            assert.deepEqual(shownPieces(whole, x, outside), [], `unbounded: ${JSON.stringify(whole)}`);
            // -1: a bound that cuts the text inside the planted form (where a cut is most dangerous).
            const inside = before.length + sep1.length + (at % (planted.length + 1));
            const max =
              bound >= 0
                ? bound
                : Math.max(0, side === 'start' ? inside - CUT_MARGIN : text.length - inside - CUT_MARGIN);
            const out = redact(text, max, side);
            assert.ok(out.length <= max, `${out.length} > ${max}`);
            assert.deepEqual(shownPieces(out, x, outside), [], `${side} ${max}: ${JSON.stringify(out)}`);
          },
        ),
      );
    });
  }

  it('a long opaque key alone', (t) => {
    check(
      t,
      fc.property(padding, opaqueKey, padding, keep, fc.nat(), (before, key, after, side, at) => {
        const text = `${before} ${key} ${after}`;
        const inside = before.length + 1 + (at % (key.length + 1));
        const max = Math.max(0, side === 'start' ? inside - CUT_MARGIN : text.length - inside - CUT_MARGIN);
        const outside = `${before} ${HIDDEN.repeat(key.length)} ${after}`;
        assert.deepEqual(shownPieces(redact(text), key, outside), []);
        assert.deepEqual(shownPieces(redact(text, max, side), key, outside), []);
      }),
    );
  });
});

/** Text with every rule's prefix in it, and masks, ellipses and surrogate pairs to cut through. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom(
      ' ',
      '\n',
      ':',
      '=',
      '"',
      "'",
      '/',
      '@',
      '&',
      '\\',
      'a',
      '9',
      '😀',
      'Bearer ',
      'token',
      '"token":"',
      'code=',
      'Authorization: ',
      'https://',
      'a://a:a@',
      '[redacted]',
      'eyJhbGciOi.eyJzdWIi.c2ln',
      'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6',
      '…',
    ),
    maxLength: 400,
  }),
);

describe('a bounded redact is bounded and stable', () => {
  it('has at most maxChars characters, and ends (start) or begins (end) with … when it cut', (t) => {
    check(
      t,
      fc.property(hostileText, fc.integer({ min: 0, max: 600 }), keep, (text, max, side) => {
        const out = redact(text, max, side);
        assert.ok(out.length <= max, `${out.length} > ${max}: ${JSON.stringify(out)}`);
        if (text.length > max + CUT_MARGIN && max > 0) {
          assert.ok(side === 'start' ? out.endsWith('…') : out.startsWith('…'), JSON.stringify(out));
        }
      }),
    );
  });

  it('does not split a surrogate pair', (t) => {
    check(
      t,
      fc.property(hostileText, fc.integer({ min: 0, max: 600 }), keep, (text, max, side) => {
        const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;
        const out = redact(text, max, side);
        assert.ok(wellFormed(out) || !wellFormed(text), JSON.stringify(out));
      }),
    );
  });

  it('redactStable with a bound is a fixed point (an error round-trips unchanged)', (t) => {
    check(
      t,
      fc.property(hostileText, fc.integer({ min: 1, max: 600 }), keep, (text, max, side) => {
        const once = redactStable(text, max, side);
        assert.ok(once.length <= max);
        assert.equal(redactStable(once, max, side), once);
      }),
    );
  });

  it('without a cut, a bounded redact is the unbounded one', (t) => {
    check(
      t,
      fc.property(hostileText, keep, (text, side) => {
        const whole = redact(text);
        assert.equal(redact(text, whole.length, side), whole);
      }),
    );
  });
});

/** Lines a server's stdout may carry: JSON messages, banners and log lines, blank lines, random bytes. */
const lineContent = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => Buffer.from(s)),
  fc
    .constantFrom('', ' ', '\t', 'Server started on port 3000', 'token=supersecret123 Bearer abcdefghij')
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x0a))),
);
const terminator = fc.constantFrom('\n', '\r\n').map((s) => Buffer.from(s));
const stream = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(lineContent, terminator), { maxLength: 12 }), lineContent)
  .map(([bom, lines, unterminated]) =>
    Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), ...lines.flat(), unterminated]),
  );

interface Decoded {
  values: unknown[];
  skipped: NonNullable<FeedResult['skipped']>;
  error: FeedResult['error'];
  maxBuffered: number;
}

function decode(chunks: readonly Buffer[], maxLineBytes: number): Decoded {
  const decoder = new LineDecoder(maxLineBytes);
  const out: Decoded = { values: [], skipped: [], error: undefined, maxBuffered: 0 };
  for (const chunk of chunks) {
    const result = decoder.feed(chunk);
    out.values.push(...result.values);
    out.skipped.push(...(result.skipped ?? []));
    out.maxBuffered = Math.max(out.maxBuffered, decoder.bufferedBytes);
    if (result.error) {
      out.error = result.error;
      break;
    }
  }
  return out;
}

describe('the stdio line decoder under any chunking', () => {
  it('gives the same values, skipped lines (and previews) and error as one chunk', (t) => {
    check(
      t,
      fc.property(
        stream,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        (bytes, offsets, limit) => {
          const whole = decode([bytes], limit);
          const chunked = decode(cutAt(bytes, offsets), limit);
          assert.deepEqual(chunked.values, whole.values);
          assert.deepEqual(chunked.skipped, whole.skipped);
          assert.deepEqual(chunked.error, whole.error);
          assert.ok(chunked.maxBuffered <= limit + 1, `held ${chunked.maxBuffered} bytes > ${limit + 1}`);
        },
      ),
    );
  });

  it('fails a line over the limit as too_large, after the lines before it, holding ≤ limit+1', (t) => {
    check(
      t,
      fc.property(
        fc.array(fc.tuple(lineContent, terminator), { maxLength: 6 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 300 }),
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        terminator,
        fc.array(fc.nat(), { maxLength: 30 }),
        (lines, limit, extra, fill, end, offsets) => {
          const fitting = lines.filter(([content]) => content.length <= limit);
          // An over-limit line: limit+extra bytes of anything but LF, not ending with the CR a CRLF would
          // drop (nor starting with the byte-order mark a first line would drop).
          const pattern = Buffer.from(fill).map((b) => (b === 0x0a || b === 0x0d || b === 0xef ? 0x41 : b));
          const long = Buffer.alloc(limit + extra, pattern);
          const before = Buffer.concat(fitting.flat());
          const bytes = Buffer.concat([before, long, end, Buffer.from('{"after":1}\n')]);
          const expected = decode([before], limit);
          const got = decode(cutAt(bytes, offsets), limit);
          assert.equal(got.error?.type, 'too_large');
          assert.deepEqual(got.values, expected.values);
          assert.deepEqual(got.skipped, expected.skipped);
          assert.ok(got.maxBuffered <= limit + 1, `held ${got.maxBuffered} bytes > ${limit + 1}`);
        },
      ),
    );
  });
});
