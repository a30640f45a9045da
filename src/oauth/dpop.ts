/**
 * DPoP (RFC 9449): one key pair per authorization server, kept in the store so every process that shares
 * the store presents the key its tokens are bound to. Token requests get their proofs from oauth4webapi's
 * public `DPoP()` handle; the MCP server's requests get theirs here (`htm`, `htu`, `ath`, and the nonce the
 * server asked for, per origin): a small ES256 JWS on WebCrypto, so nothing relies on the handle's
 * undeclared methods.
 */
import { randomBytes, type webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { AuthChallenge } from '../errors/index.js';
import { McpError } from '../errors/index.js';
import type { CredentialStore } from '../store/types.js';
import { asStored, keys } from './records.js';

const ALGORITHM = 'ES256';
const IMPORT = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * Whether to bind new tokens with DPoP: as configured, else when the authorization server can (it lists
 * ES256 in `dpop_signing_alg_values_supported`) and the MCP server takes them (a `DPoP` challenge, or its
 * resource metadata says so). A server that only takes Bearer tokens never gets a DPoP-bound one.
 */
export function dpopWanted(
  as: oauth.AuthorizationServer,
  configured: boolean | undefined,
  resourceTakesDpop: boolean,
): boolean {
  if (configured !== undefined) return configured;
  const algs = as.dpop_signing_alg_values_supported;
  return resourceTakesDpop && Array.isArray(algs) && algs.includes(ALGORITHM);
}

/**
 * True when a 401 says the resource server takes Bearer tokens only: it challenges, and never with `DPoP`
 * (RFC 9449 §7.1: a resource server that takes DPoP-bound tokens names the DPoP scheme in its challenge).
 */
export function bearerOnly(challenges: readonly AuthChallenge[]): boolean {
  return (
    challenges.some((c) => c.scheme.toLowerCase() === 'bearer') &&
    !challenges.some((c) => c.scheme.toLowerCase() === 'dpop')
  );
}

/**
 * The refusal of a DPoP-bound token (`dpop: true`) at a server that takes Bearer tokens only: no refresh
 * or login can help while the config insists. `fix` names the setting (the library's or the CLI's).
 */
export function bearerOnlyRefusal(url: string, fix: string, challenge: AuthChallenge | undefined): McpError {
  return new McpError(
    'auth_required',
    `${url} takes Bearer tokens only and refused the DPoP-bound token (${fix}): log in again without it`,
    { delivery: 'delivered', status: 401, ...(challenge !== undefined ? { challenge } : {}) },
  );
}

/**
 * The DPoP handle for tokens of `issuer` (oauth4webapi's public `DPoP()`, handed to its token requests),
 * on the key pair kept in the store. `proofFor` and `rememberNonce` serve the MCP server's requests with
 * the same key pair.
 */
export async function dpopHandle(store: CredentialStore, issuer: string): Promise<oauth.DPoPHandle> {
  const pair = await dpopKeyPair(store, issuer);
  // The client argument carries only an optional clock skew; none is configured.
  const handle = oauth.DPoP({}, pair);
  resourceProofs.set(handle, new ResourceProofs(pair));
  return handle;
}

async function dpopKeyPair(store: CredentialStore, issuer: string): Promise<webcrypto.CryptoKeyPair> {
  const key = keys.dpop(issuer);
  return store.withLock(key, async () => {
    const stored = await store.get(key);
    const privateJwk = stored?.['privateJwk'] as webcrypto.JsonWebKey | undefined;
    const publicJwk = stored?.['publicJwk'] as webcrypto.JsonWebKey | undefined;
    if (privateJwk !== undefined && publicJwk !== undefined) {
      return {
        privateKey: await crypto.subtle.importKey('jwk', privateJwk, IMPORT, false, ['sign']),
        publicKey: await crypto.subtle.importKey('jwk', publicJwk, IMPORT, true, ['verify']),
      };
    }
    const pair = await crypto.subtle.generateKey(IMPORT, true, ['sign', 'verify']);
    await store.set(
      key,
      asStored({
        privateJwk: await crypto.subtle.exportKey('jwk', pair.privateKey),
        publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey),
      }),
    );
    return pair;
  });
}

/** The MCP-server side of each handle `dpopHandle` made. */
const resourceProofs = new WeakMap<oauth.DPoPHandle, ResourceProofs>();

/** A proof for one MCP request (`ath` binds it to the access token). */
export async function proofFor(
  handle: oauth.DPoPHandle,
  url: URL,
  method: string,
  accessToken: string,
): Promise<string> {
  return proofsOf(handle).proof(url, method, accessToken);
}

/** Remembers a nonce the resource server sent (`DPoP-Nonce` on a 401 `use_dpop_nonce`). */
export function rememberNonce(handle: oauth.DPoPHandle, url: URL, nonce: string): void {
  proofsOf(handle).rememberNonce(url, nonce);
}

function proofsOf(handle: oauth.DPoPHandle): ResourceProofs {
  const proofs = resourceProofs.get(handle);
  if (proofs === undefined) throw new McpError('config', 'DPoP: the handle was not made by dpopHandle()');
  return proofs;
}

/** Origins whose nonce is remembered; the oldest is forgotten first (a client talks to a few servers). */
const MAX_NONCES = 100;

/**
 * DPoP proofs for the MCP server's requests with one key pair (RFC 9449 §4.2): header `typ: dpop+jwt`,
 * `alg: ES256` and the public `jwk`; claims `jti`, `htm`, `htu` (the URL without query and fragment),
 * `iat`, `ath` (base64url SHA-256 of the access token, §4.3) and the server's `nonce` (§9) once it sent one.
 */
export class ResourceProofs {
  readonly #privateKey: webcrypto.CryptoKey;
  readonly #publicKey: webcrypto.CryptoKey;
  readonly #now: () => number;
  readonly #nonces = new Map<string, string>();
  #header: Promise<string> | undefined;

  /** `now` gives the time in ms (`iat` is in seconds); injectable for tests. */
  constructor(pair: webcrypto.CryptoKeyPair, now: () => number = Date.now) {
    this.#privateKey = pair.privateKey;
    this.#publicKey = pair.publicKey;
    this.#now = now;
  }

  /** The `DPoP` header value for `method` on `url`, bound to `accessToken`. */
  async proof(url: URL, method: string, accessToken: string): Promise<string> {
    this.#header ??= this.#encodedHeader();
    const nonce = this.#nonces.get(url.origin);
    const claims = {
      iat: Math.floor(this.#now() / 1000),
      jti: base64url(randomBytes(32)),
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      ...(nonce === undefined ? {} : { nonce }),
      ath: base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))),
    };
    const input = `${await this.#header}.${base64url(JSON.stringify(claims))}`;
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      this.#privateKey,
      new TextEncoder().encode(input),
    );
    // WebCrypto's ECDSA signature is r || s, the JWS form of ES256 (RFC 7518 §3.4).
    return `${input}.${base64url(signature)}`;
  }

  /** Remembers the nonce `url`'s server asked for; later proofs to its origin carry it. */
  rememberNonce(url: URL, nonce: string): void {
    this.#nonces.delete(url.origin);
    this.#nonces.set(url.origin, nonce);
    if (this.#nonces.size > MAX_NONCES) {
      const oldest = this.#nonces.keys().next().value;
      if (oldest !== undefined) this.#nonces.delete(oldest);
    }
  }

  async #encodedHeader(): Promise<string> {
    const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', this.#publicKey);
    return base64url(JSON.stringify({ alg: ALGORITHM, typ: 'dpop+jwt', jwk: { kty, crv, x, y } }));
  }
}

function base64url(value: string | ArrayBuffer | Uint8Array): string {
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('base64url');
  return Buffer.from(value instanceof ArrayBuffer ? new Uint8Array(value) : value).toString('base64url');
}
