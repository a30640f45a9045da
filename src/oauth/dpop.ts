/**
 * DPoP (RFC 9449): one key pair per authorization server, kept in the store so every process that shares
 * the store presents the key its tokens are bound to; a proof per request (`htm`, `htu`, `ath`), and the
 * server's nonce remembered per origin (oauth4webapi's handle does both).
 */
import type { webcrypto } from 'node:crypto';
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

export async function dpopKeyPair(store: CredentialStore, issuer: string): Promise<webcrypto.CryptoKeyPair> {
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
    const pair = (await oauth.generateKeyPair(ALGORITHM, { extractable: true })) as webcrypto.CryptoKeyPair;
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

/** A proof for one MCP request (`ath` binds it to the access token). */
export async function proofFor(
  handle: oauth.DPoPHandle,
  url: URL,
  method: string,
  accessToken: string,
): Promise<string> {
  const headers = new Headers();
  await (handle as unknown as DPoPInternals).addProof(url, headers, method, accessToken);
  return headers.get('dpop') ?? '';
}

/** Remembers a nonce the resource server sent (`DPoP-Nonce` on a 401 `use_dpop_nonce`). */
export function rememberNonce(handle: oauth.DPoPHandle, url: URL, nonce: string): void {
  (handle as unknown as DPoPInternals).cacheNonce(
    new Response(null, { headers: { 'dpop-nonce': nonce } }),
    url,
  );
}

/** The handle's per-request methods: public on the class, not in its declared type. */
interface DPoPInternals {
  addProof(url: URL, headers: Headers, htm: string, accessToken?: string): Promise<void>;
  cacheNonce(response: Response, url: URL): void;
}
