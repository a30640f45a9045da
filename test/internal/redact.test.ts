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
