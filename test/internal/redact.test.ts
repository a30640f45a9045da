import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedTail, redact } from '../../src/internal/redact.js';

describe('redact', () => {
  const secrets: Array<[string, string, string]> = [
    ['an Authorization header', 'Authorization: Bearer abc.def.ghi-123', 'abc.def.ghi-123'],
    ['a Basic credential', 'using Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
    ['a bearer token in prose', 'sent bearer sk_live_abcdef12 to the API', 'sk_live_abcdef12'],
    ['a token= query parameter', 'GET /cb?state=1&access_token=s3cr3t&x=1', 's3cr3t'],
    ['an OAuth code', 'redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz', 'SplxlOBeZQQYbYS6WxSbIA'],
    ['a password flag', '--password=hunter2 --verbose', 'hunter2'],
    ['an env-style API key', 'OPENAI_API_KEY=sk-proj-abc', 'sk-proj-abc'],
    ['a secret: value', 'client_secret: topsecret', 'topsecret'],
    ['a JSON token', '{"refresh_token": "rt-123\\"x", "n": 1}', 'rt-123'],
    ['URL credentials', 'connect https://alice:pa55@db.example.com/x', 'pa55'],
    ['a JWT', 'id eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl end', 'eyJhbGciOiJSUzI1NiJ9'],
    ['a long opaque key', 'key ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 end', 'ghp_A1b2C3d4E5f6G7h8I9j0'],
  ];
  for (const [what, text, secret] of secrets) {
    it(`masks ${what}`, () => {
      const out = redact(text);
      assert.ok(!out.includes(secret), `want ${JSON.stringify(secret)} masked, got ${JSON.stringify(out)}`);
      assert.match(out, /\[redacted\]/);
    });
  }

  const harmless = [
    'server exited with code: 1',
    'Error: ENOENT: no such file or directory, open /usr/lib/node_modules/@scope/some-package/dist/index.js',
    'basic usage: server --port 8080',
    'listening on http://localhost:3000/mcp',
    'the token expired',
  ];
  for (const text of harmless) {
    it(`leaves ${JSON.stringify(text)} readable`, () => {
      assert.equal(redact(text), text);
    });
  }
});

describe('boundedTail', () => {
  it('returns short text unchanged', () => {
    assert.equal(boundedTail('abc', 10), 'abc');
  });

  it('keeps the end, starts at a line boundary when one is near, and marks the cut', () => {
    const text = `${'first line that is long\n'.repeat(10)}last line`;
    const tail = boundedTail(text, 40);
    assert.ok(tail.startsWith('…'));
    assert.ok(tail.endsWith('last line'));
    assert.ok(tail.length <= 41);
    assert.ok(!tail.slice(1).startsWith('line'), 'no fragment at the start');
  });
});

describe('redact with a bound', () => {
  const pad = (n: number) => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);
  const SECRET = 'Sx7Kq2Lm9Np4Rt6V';

  it('returns short text as the unbounded redact does', () => {
    assert.equal(redact('token=abc and more', 100), 'token=[redacted] and more');
    assert.equal(redact('token=abc', 100, 'end'), 'token=[redacted]');
  });

  it('keeps the start, at most maxChars characters ending with …, without splitting a mask', () => {
    const out = redact(`${pad(50)} token=abc ${pad(5000)}`, 61);
    assert.ok(out.length <= 61, out);
    assert.ok(out.endsWith('…'), out);
    assert.doesNotMatch(out, /\[redac?t?e?d?…/);
  });

  it('keeps the end, at most maxChars characters starting with …', () => {
    const out = redact(`${pad(5000)} token=abc`, 40, 'end');
    assert.ok(out.length <= 40, out);
    assert.ok(out.startsWith('…'), out);
    assert.ok(out.endsWith('token=[redacted]'), out);
  });

  // Masked padding (opaque keys shrink to `[redacted]`), so that what is shown reaches the cut (600 + 512
  // characters in from the start, or from the end), which falls inside the secret.
  const shrinking = (n: number) => 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7 '.repeat(Math.ceil(n / 35)).slice(-n);
  for (const form of [`https://u:${SECRET}@h`, `'api_key': '${SECRET} x'`, `${SECRET}${SECRET}`]) {
    it(`never shows part of a secret the start cut falls in: ${JSON.stringify(form)}`, () => {
      const text = `${shrinking(600 + 512 - form.length + 6)}${form} ${pad(2000)}`;
      const out = redact(text, 600);
      assert.ok(out.length < 600 && out.includes('[redacted]'), `the cut is shown: ${out.slice(-60)}`);
      assert.ok(!out.includes(SECRET.slice(0, 4)), out.slice(-60));
    });
  }
  for (const form of [`Bearer ${SECRET}`, `token: ${SECRET}`, `-H 'X-Api-Key: ${SECRET}`]) {
    it(`never shows part of a secret the end cut falls in: ${JSON.stringify(form)}`, () => {
      const text = `${pad(2000)} ${form} ${shrinking(600 + 512 - 7)}`;
      const out = redact(text, 600, 'end');
      assert.ok(out.length < 600, `the cut is shown: ${out.slice(0, 60)}`);
      assert.ok(!out.includes(SECRET.slice(-4)), out.slice(0, 60));
    });
  }

  it('masks the rest of a line whose Authorization header came long before an end cut', () => {
    const text = `${pad(100)}\nAuthorization: Digest ${pad(3000)}${SECRET}\nnext line`;
    const out = redact(text, 100, 'end');
    assert.ok(!out.includes('lorem'), out);
    assert.ok(out.endsWith('[redacted]\nnext line'), out);
  });
});

it('a cut through a run longer than any secret keeps the text instead of masking it whole', () => {
  const flood = 'e'.repeat(70_000);
  assert.equal(redact(flood, 16_384, 'end'), `…${'e'.repeat(16_383)}`);
  assert.equal(redact(flood, 16_384, 'start'), `${'e'.repeat(16_383)}…`);
  // A key just before an end cut still masks its value, however long the text before it.
  const keyed = `${'e'.repeat(70_000)} api_key=${'k1'.repeat(20)} done`;
  assert.doesNotMatch(redact(keyed, 30, 'end'), /k1k1/);
});
