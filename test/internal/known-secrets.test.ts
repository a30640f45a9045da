/**
 * Known secrets: a value the caller handed in is masked by exact match, in its common encodings, by
 * `redact` (and so by every error, log line and report built while it is registered), also across the
 * cuts of a bounded `redact`; values under 6 characters are not; and masking stays linear in the text
 * whatever the number of values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpError, RpcError } from '../../src/errors/index.js';
import {
  MAX_FORM_CHARS,
  MAX_SECRET_CHARS,
  maskKnownInData,
  registerSecrets,
} from '../../src/internal/known-secrets.js';
import { redact } from '../../src/internal/redact.js';
import { SecretMatcher, secretForms } from '../../src/internal/secret-matcher.js';
import { serverMessage } from '../../src/transport/http/failures.js';
import { cpuTimed } from '../helpers/cpu-time.js';

/** A value no shape rule masks: words, spaces, quotes, non-ASCII, `+` and `/`. */
const VALUE = 'moonlit "orchard" ü+1/2';

function encodings(value: string): Record<string, string> {
  const bytes = Buffer.from(value);
  return {
    raw: value,
    url: encodeURIComponent(value),
    form: encodeURIComponent(value).replace(/%20/g, '+'),
    json: JSON.stringify(value).slice(1, -1),
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
  };
}

/** Runs `body` with `values` registered, then releases them. */
function withSecrets<T>(values: string[], body: () => T): T {
  const registration = registerSecrets(values);
  try {
    return body();
  } finally {
    registration.release();
  }
}

describe('known secrets in redact', () => {
  for (const [form, text] of Object.entries(encodings(VALUE))) {
    it(`masks the ${form} form of a registered value`, () => {
      const line = `backend refused key ${text} (retry later)`;
      withSecrets([VALUE], () => {
        const out = redact(line);
        assert.ok(!out.includes(text), `want ${JSON.stringify(text)} masked, got ${JSON.stringify(out)}`);
        assert.equal(out, 'backend refused key [redacted] (retry later)');
      });
    });
  }

  it('masks the value inside a longer base64 text at every byte alignment (Basic id:secret)', () => {
    withSecrets([VALUE], () => {
      for (const id of ['a', 'ab', 'abc']) {
        const basic = Buffer.from(`${id}:${VALUE}`).toString('base64');
        const out = redact(`sent Basic ${basic} and got 401`);
        assert.ok(!out.includes(basic.slice(8, 24)), `want the secret's part of ${basic} masked, got ${out}`);
      }
    });
  });

  it('masks the value in ASCII-only JSON (\\u escapes)', () => {
    const escaped = JSON.stringify(VALUE).slice(1, -1).replace('ü', '\\u00fc');
    withSecrets([VALUE], () => assert.equal(redact(`{"x":"${escaped}"}`), '{"x":"[redacted]"}'));
  });

  it('leaves text alone once the connection released its values', () => {
    withSecrets([VALUE], () => undefined);
    assert.equal(redact(`key ${VALUE}`), `key ${VALUE}`);
  });

  it('does not mask a value under 6 characters (documented in docs/limits.md)', () => {
    withSecrets(['abc12', VALUE], () => {
      assert.equal(redact(`short abc12 and long ${VALUE}`), 'short abc12 and long [redacted]');
    });
  });

  it('masks values too long for the shape rules to see (an access token of letters and dashes)', () => {
    const token = 'velvet-orchard-lantern-quiet-river';
    withSecrets([token], () => assert.equal(redact(`refused ${token}`), 'refused [redacted]'));
  });

  it('masks overlapping and adjacent occurrences of several values', () => {
    withSecrets(['abcdefgh', 'efghijkl', 'zzzzzzz'], () => {
      assert.equal(redact('xx abcdefghijkl yy'), 'xx [redacted] yy');
      assert.equal(redact('zzzzzzzabcdefgh!'), '[redacted][redacted]!');
    });
  });
});

describe('known secrets across the cuts of a bounded redact', () => {
  const filler = (n: number) => 'word '.repeat(Math.ceil(n / 5)).slice(0, n);
  it('keep start: a value across the cut is not shown in part', () => {
    withSecrets([VALUE], () => {
      for (let at = 90; at <= 110; at++) {
        const out = redact(`${filler(at)}${VALUE}${filler(1000)}`, 100);
        assert.ok(out.length <= 100);
        for (const part of ['moonlit "orch', 'orchard" ü'])
          assert.ok(!out.includes(part), `at ${at}: ${out}`);
      }
    });
  });

  it('keep start: a value at the end of the looked-at window, pushed into view by masks before it', () => {
    withSecrets([VALUE], () => {
      // 60 masked copies shrink the text by 13 characters each: what was beyond the window comes into view.
      const text = `${VALUE.repeat(60)}${filler(500)}${VALUE}${filler(5000)}`;
      const out = redact(text, 1000);
      assert.ok(!out.includes('moonlit'), out);
    });
  });

  it('keep start: with values registered, a key-shaped piece across the cut is still not shown in part', () => {
    withSecrets([VALUE], () => {
      // 17 opaque keys (masked to 10 characters each) bring the cut at 712 characters into view.
      const keys = `${'a1'.repeat(20)} `.repeat(17);
      const key = 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
      const text = `${keys}${key}${' '.repeat(5000)}`;
      assert.ok(keys.length < 712 && keys.length + key.length > 712);
      const out = redact(text, 200);
      assert.ok(!out.includes('Q1w2E3'), out);
    });
  });

  it('keep end: a value across the start of the kept tail is not shown in part', () => {
    withSecrets([VALUE], () => {
      for (let at = 90; at <= 110; at++) {
        const out = redact(`${filler(9000)}${VALUE}${filler(at)}`, 100, 'end');
        assert.ok(out.length <= 100);
        for (const part of ['rchard" ü+1/2', 'ü+1/2', '" ü+1'])
          assert.ok(!out.includes(part), `at ${at}: ${out}`);
      }
    });
  });

  it('keep end: a value far before the tail, pulled into view by masks after it', () => {
    withSecrets([VALUE], () => {
      const text = `${filler(20000)}${VALUE}${filler(100)}${VALUE.repeat(400)}`;
      const out = redact(text, 200, 'end');
      assert.ok(!out.includes('ü+1/2') && !out.includes('moonlit'), out);
    });
  });
});

describe('a registered value that is not in the text changes nothing', () => {
  it('bounded and unbounded redact give what the shape rules alone give, at every cut', () => {
    // A small deterministic generator of texts full of what the rules and the cuts care about.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = [
      'word ',
      'Authorization: Bearer abcdefgh12345678 ',
      'token=s3cr3tvalue ',
      '{"api_key": "abc def"} ',
      'https://u:pa55@h/x ',
      'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8 ',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln ',
      '\n',
      'ü😀 ',
      'a'.repeat(40),
    ];
    for (let round = 0; round < 60; round++) {
      let text = '';
      const length = next(12_000);
      while (text.length < length) text += pieces[next(pieces.length)];
      for (const limit of [0, 1, 50, 300, 5000]) {
        for (const keep of ['start', 'end'] as const) {
          const alone = redact(text, limit, keep);
          const known = withSecrets(['absent value 1'], () => redact(text, limit, keep));
          assert.equal(
            known,
            alone,
            `round ${round}, ${text.length} characters, limit ${limit}, keep ${keep}`,
          );
        }
      }
      assert.equal(
        withSecrets(['absent value 1'], () => redact(text)),
        redact(text),
      );
    }
  });
});

describe('known secrets in errors', () => {
  it('an RpcError masks the value in message, rpcMessage, data and toJSON, and stays masked through fromJSON', () => {
    withSecrets([VALUE], () => {
      const error = new RpcError('tools/call fail', 'srv', -32000, `backend refused key ${VALUE}`, {
        key: VALUE,
        [VALUE]: 1,
        nested: [{ url: `https://x/?k=${encodeURIComponent(VALUE)}` }],
        count: 3,
      });
      const json = JSON.stringify(error.toJSON());
      for (const text of [error.message, error.rpcMessage, JSON.stringify(error.data), json]) {
        assert.ok(!text.includes('moonlit') && !text.includes('moonlit%20'), text);
      }
      assert.deepEqual(error.data, {
        key: '[redacted]',
        '[redacted]': 1,
        nested: [{ url: 'https://x/?k=[redacted]' }],
        count: 3,
      });
      const copy = McpError.fromJSON(structuredClone(error.toJSON()));
      assert.deepEqual(copy.toJSON(), error.toJSON());
    });
  });

  it('error data without a known value is kept as the same object', () => {
    const data = { a: [1, 'two'] };
    withSecrets([VALUE], () => assert.equal(maskKnownInData(data), data));
  });

  it('a stderr tail is masked', () => {
    withSecrets([VALUE], () => {
      const error = new McpError('transport', 'exited', { stderrTail: `line\nkey ${VALUE}\n` });
      assert.equal(error.stderrTail, 'line\nkey [redacted]\n');
    });
  });

  it('an HTTP error body quoting a value with a tab and two spaces is masked before its white space is collapsed', () => {
    const spaced = 'north\twind  rises';
    withSecrets([spaced], () => {
      for (const [body, type] of [
        [`backend refused key ${spaced}\nmore`, 'text/plain'],
        [JSON.stringify({ error: `backend refused key ${spaced}` }), 'application/json'],
      ] as const) {
        const said = serverMessage(body, type);
        assert.equal(said, 'backend refused key [redacted]');
      }
    });
  });
});

describe('the registry', () => {
  it('skips values over MAX_SECRET_CHARS and under 6 characters, and forms under 6', () => {
    // As written, base64 whole, and the parts of its base64 that stay the same at byte offsets 1 and 2.
    assert.deepEqual(secretForms('abcdef').sort(), ['FiY2RlZ', 'YWJjZGVm', 'abcdef', 'hYmNkZW'].sort());
    assert.deepEqual(secretForms('abcde'), []);
    withSecrets(['x'.repeat(MAX_SECRET_CHARS + 1)], () => {
      assert.equal(redact(`a ${'x'.repeat(MAX_SECRET_CHARS + 1)}`).length, MAX_SECRET_CHARS + 3);
    });
  });

  it('learns a value added after registration (a token handed out later)', () => {
    const registration = registerSecrets([]);
    try {
      assert.equal(redact('token velvet-orchard-lantern'), 'token velvet-orchard-lantern');
      registration.add(['velvet-orchard-lantern']);
      assert.equal(redact('token velvet-orchard-lantern'), 'token [redacted]');
    } finally {
      registration.release();
    }
  });
});

describe('known-secret masking is linear in the text, whatever the number of values', () => {
  const SIZE = 1 << 20;
  /**
   * Per 1 MB. The matcher takes about two steps per character here, whatever the values (~30–150 ms on a
   * busy machine). One that tries each value at each position, or each position's partial match afresh,
   * costs the text times the number or the length of the values: seconds here. Over the bound (a busy
   * machine), the time must stay within 4 times that of a single 6-character value on the same text,
   * which such a matcher, 30 to 1,000 times slower, cannot.
   */
  const LIMIT_MS = 250;
  const RATIO = 4;
  const fastest = (run: () => unknown): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      best = Math.min(best, cpuTimed(run));
    }
    return best;
  };

  // 1,000 values of 200 characters sharing a 196-character prefix with each other and with the text, so
  // that every position of the text is inside a partial match.
  const values = Array.from({ length: 1000 }, (_, i) => `${'a'.repeat(196)}${String(i).padStart(4, '0')}`);
  const inputs: Array<[string, string]> = [
    ['near misses', 'a'.repeat(SIZE)],
    ['near misses then a different end', `${'a'.repeat(198)}b`.repeat(Math.ceil(SIZE / 199)).slice(0, SIZE)],
    [
      'every value',
      values
        .join(' ')
        .repeat(Math.ceil(SIZE / 201_000))
        .slice(0, SIZE),
    ],
    ['plain text', 'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(SIZE / 55)],
  ];
  const matcher = new SecretMatcher(values.flatMap(secretForms));
  const single = new SecretMatcher(secretForms('aaaaab'));

  /** Asserts `ms` is under the bound or within RATIO of `base` (one short value). */
  const assertLinear = (what: string, ms: number, base: number): void => {
    console.log(`  ${what}: ${ms.toFixed(1)} ms for 1 MB with 1,000 values, ${base.toFixed(1)} ms with one`);
    assert.ok(
      ms < LIMIT_MS || ms < RATIO * base,
      `${what}: ${ms.toFixed(1)} ms on 1 MB with 1,000 values of 200 characters, ${base.toFixed(1)} ms with one of 6`,
    );
  };

  for (const [what, text] of inputs) {
    it(`1 MB of ${what} against 1,000 values`, () => {
      assertLinear(
        what,
        fastest(() => matcher.mask(text)),
        fastest(() => single.mask(text)),
      );
    });
  }

  it('redact with 1,000 registered values: 1 MB of near misses in linear time', () => {
    const text = 'a'.repeat(SIZE);
    const base = withSecrets(['aaaaab'], () => fastest(() => redact(text)));
    const ms = withSecrets(values, () => fastest(() => redact(text)));
    assertLinear('redact', ms, base);
  });

  it('building the matcher at the bound (MAX_FORM_CHARS of forms) takes well under a second', () => {
    const big = Array.from({ length: 100 }, (_, i) => `${i}:${'k'.repeat(1024)}`);
    const chars = big.flatMap(secretForms).reduce((sum, form) => sum + form.length, 0);
    assert.ok(chars > MAX_FORM_CHARS * 0.8 && chars <= MAX_FORM_CHARS, `${chars} characters of forms`);
    let built: SecretMatcher | undefined;
    const ms = cpuTimed(() => {
      built = new SecretMatcher(big.flatMap(secretForms));
    });
    console.log(
      `  build: ${ms.toFixed(0)} ms for ${big.length} values of 1 KB (${chars} characters of forms)`,
    );
    assert.equal(built?.mask(`x ${big[7]} y`), 'x [redacted] y');
    assert.ok(ms < 3000, `${ms} ms`);
  });
});

describe('known secrets in error data', () => {
  it('masks a value JSON-escaped inside a string of the data, and in keys', () => {
    withSecrets([VALUE], () => {
      const data = { body: JSON.stringify({ key: VALUE }), [`k ${VALUE}`]: [VALUE] };
      assert.deepEqual(maskKnownInData(data), {
        body: '{"key":"[redacted]"}',
        'k [redacted]': ['[redacted]'],
      });
    });
  });

  it('masks data too deep to serialize whole', () => {
    let deep: unknown = VALUE;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    withSecrets([VALUE], () => assert.equal(maskKnownInData(deep), '[redacted]'));
  });
});
