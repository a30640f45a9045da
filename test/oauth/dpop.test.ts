/**
 * DPoP proofs for the MCP server's requests (RFC 9449 §4.2), made on WebCrypto by autos-mcp itself, checked
 * with jose as a resource server would: the signature against the header's `jwk`, the claims `htm`, `htu`
 * (no query or fragment), `iat`, `ath`, a fresh `jti`, and the nonce the server asked for, per origin. The
 * key pair is kept in the store, so a second handle presents the same key.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { calculateJwkThumbprint, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { dpopHandle, proofFor, ResourceProofs, rememberNonce } from '../../src/oauth/dpop.js';
import { memoryStore } from '../../src/store/index.js';

const ISSUER = 'https://as.example.com';

async function verified(proof: string): Promise<{ header: JWK; claims: Record<string, unknown> }> {
  const header = decodeProtectedHeader(proof);
  assert.equal(header.typ, 'dpop+jwt');
  assert.equal(header.alg, 'ES256');
  const jwk = header.jwk as JWK;
  assert.deepEqual(Object.keys(jwk).sort(), ['crv', 'kty', 'x', 'y'], 'the public key only, never `d`');
  const { payload } = await jwtVerify(proof, jwk, { typ: 'dpop+jwt', algorithms: ['ES256'] });
  return { header: jwk, claims: payload as Record<string, unknown> };
}

test('a proof verifies with its own jwk and binds method, URL and access token', async () => {
  const handle = await dpopHandle(memoryStore(), ISSUER);
  const url = new URL('https://mcp.example.com/mcp?key=secret#frag');
  const before = Math.floor(Date.now() / 1000);
  const { claims } = await verified(await proofFor(handle, url, 'POST', 'the-access-token'));
  assert.equal(claims['htm'], 'POST');
  assert.equal(claims['htu'], 'https://mcp.example.com/mcp', 'no query, no fragment');
  const ath = createHash('sha256').update('the-access-token').digest('base64url');
  assert.equal(claims['ath'], ath);
  assert.ok(typeof claims['iat'] === 'number' && claims['iat'] >= before && claims['iat'] <= before + 5);
  assert.ok(typeof claims['jti'] === 'string' && claims['jti'].length >= 32);
  assert.equal(claims['nonce'], undefined, 'no nonce until the server asks for one');
  const again = await verified(await proofFor(handle, url, 'POST', 'the-access-token'));
  assert.notEqual(again.claims['jti'], claims['jti'], 'every proof has a fresh jti');
});

test('a nonce the server sent is carried by later proofs to its origin only', async () => {
  const handle = await dpopHandle(memoryStore(), ISSUER);
  const mcp = new URL('https://mcp.example.com/mcp');
  rememberNonce(handle, mcp, 'n-42');
  const { claims } = await verified(
    await proofFor(handle, new URL('https://mcp.example.com/other'), 'GET', 't'),
  );
  assert.equal(claims['nonce'], 'n-42');
  assert.equal(claims['htm'], 'GET');
  const elsewhere = await verified(await proofFor(handle, new URL('https://b.example.com/mcp'), 'POST', 't'));
  assert.equal(elsewhere.claims['nonce'], undefined);
  rememberNonce(handle, mcp, 'n-43');
  assert.equal((await verified(await proofFor(handle, mcp, 'POST', 't'))).claims['nonce'], 'n-43');
});

test('the key pair is kept in the store: a second handle presents the same key', async () => {
  const store = memoryStore();
  const url = new URL('https://mcp.example.com/mcp');
  const first = await verified(await proofFor(await dpopHandle(store, ISSUER), url, 'POST', 't'));
  const second = await verified(await proofFor(await dpopHandle(store, ISSUER), url, 'POST', 't'));
  assert.equal(await calculateJwkThumbprint(first.header), await calculateJwkThumbprint(second.header));
  const other = await verified(
    await proofFor(await dpopHandle(store, 'https://as2.example.com'), url, 'POST', 't'),
  );
  assert.notEqual(await calculateJwkThumbprint(first.header), await calculateJwkThumbprint(other.header));
});

test('iat comes from the injected clock', async () => {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const proofs = new ResourceProofs(pair, () => 1_700_000_000_999);
  const proof = await proofs.proof(new URL('https://mcp.example.com/mcp'), 'POST', 't');
  const header = decodeProtectedHeader(proof);
  const { payload } = await jwtVerify(proof, header.jwk as JWK, { currentDate: new Date(1_700_000_000_000) });
  assert.equal(payload.iat, 1_700_000_000);
});
