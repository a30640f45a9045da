/**
 * Tests for WWW-Authenticate parsing (RFC 9110 §11.6.1; S25/basic/authorization;
 * S26/basic/authorization/authorization-server-discovery).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseWwwAuthenticate } from '../../src/protocol/www-authenticate.js';

test('the SDK requireBearerAuth challenge is parsed with all fields', () => {
  const header =
    'Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"';
  assert.deepEqual(parseWwwAuthenticate(header), [
    {
      scheme: 'Bearer',
      error: 'invalid_token',
      errorDescription: 'Missing Authorization header',
      resourceMetadata: 'http://localhost:3000/.well-known/oauth-protected-resource/mcp',
    },
  ]);
});

test('several challenges, token values, escapes and case-insensitive names', () => {
  const header =
    'Basic realm="x", DPoP algs="ES256", Bearer SCOPE="mcp:read mcp:write", error=insufficient_scope, error_description="say \\"hi\\""';
  assert.deepEqual(parseWwwAuthenticate(header), [
    { scheme: 'Basic' },
    { scheme: 'DPoP' },
    {
      scheme: 'Bearer',
      scope: 'mcp:read mcp:write',
      error: 'insufficient_scope',
      errorDescription: 'say "hi"',
    },
  ]);
});

test('token68 challenges and bare schemes separated by commas', () => {
  assert.deepEqual(parseWwwAuthenticate('Negotiate abc/def+==, Bearer'), [
    { scheme: 'Negotiate' },
    { scheme: 'Bearer' },
  ]);
  assert.deepEqual(parseWwwAuthenticate('Bearer, DPoP'), [{ scheme: 'Bearer' }, { scheme: 'DPoP' }]);
  assert.deepEqual(parseWwwAuthenticate('Basic dXNlcjpwYXNz'), [{ scheme: 'Basic' }]);
  assert.deepEqual(parseWwwAuthenticate(['Bearer scope="a"', 'DPoP error="x"']), [
    { scheme: 'Bearer', scope: 'a' },
    { scheme: 'DPoP', error: 'x' },
  ]);
});

test('an unquoted URL value and an unterminated quote are read leniently', () => {
  assert.deepEqual(parseWwwAuthenticate('Bearer resource_metadata=https://h/x, scope="open'), [
    { scheme: 'Bearer', resourceMetadata: 'https://h/x', scope: 'open' },
  ]);
});

test('empty and junk input give no challenge or a best effort, never an exception', () => {
  assert.deepEqual(parseWwwAuthenticate(''), []);
  assert.deepEqual(parseWwwAuthenticate(undefined), []);
  assert.deepEqual(parseWwwAuthenticate(',,, ;;;'), []);
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (text) => {
      const out = parseWwwAuthenticate(text);
      assert.ok(Array.isArray(out) && out.length <= 16);
    }),
    { numRuns: 1000 },
  );
});

test('a huge header is parsed in bounded time and only its head is read', () => {
  const started = performance.now();
  const out = parseWwwAuthenticate(`Bearer scope="${'a'.repeat(5_000_000)}`);
  assert.ok(performance.now() - started < 200, 'bounded time');
  assert.ok((out[0]?.scope?.length ?? 0) < 9000);
});
