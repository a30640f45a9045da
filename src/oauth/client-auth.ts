/**
 * How this client proves itself at a token endpoint: `client_secret_basic`, `client_secret_post`,
 * `none` (a public client) or `private_key_jwt` (RFC 7523, a JWT signed with the configured PKCS8 key).
 * The method comes from the registration response, else from what the authorization server supports.
 */
import type { webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { StoredClient } from './records.js';

const CURVES: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/** Imports a PKCS8 PEM private key for signing with `algorithm`. Errors never include the key. */
export async function importPrivateKey(pem: string, algorithm: string): Promise<webcrypto.CryptoKey> {
  const base64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(base64, 'base64');
  const params: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams | webcrypto.Algorithm =
    algorithm.startsWith('ES')
      ? { name: 'ECDSA', namedCurve: CURVES[algorithm] ?? 'P-256' }
      : algorithm.startsWith('RS')
        ? { name: 'RSASSA-PKCS1-v1_5', hash: `SHA-${algorithm.slice(2)}` }
        : algorithm.startsWith('PS')
          ? { name: 'RSA-PSS', hash: `SHA-${algorithm.slice(2)}` }
          : { name: 'Ed25519' };
  try {
    return await crypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
  } catch {
    throw new McpError('config', `oauth config: privateKey is not a PKCS8 ${algorithm} private key`);
  }
}

/** The method to use when the registration did not say: the server's preference among what we can do. */
export function pickAuthMethod(
  supported: readonly string[] | undefined,
  has: { secret: boolean; key: boolean },
): string {
  // RFC 8414 §2: absent means client_secret_basic.
  const offered = supported ?? ['client_secret_basic'];
  if (has.key && offered.includes('private_key_jwt')) return 'private_key_jwt';
  if (has.secret) {
    if (offered.includes('client_secret_basic')) return 'client_secret_basic';
    if (offered.includes('client_secret_post')) return 'client_secret_post';
    return 'client_secret_basic';
  }
  if (has.key) return 'private_key_jwt';
  return 'none';
}

export async function clientAuthentication(
  client: StoredClient,
  key: { pem: string; algorithm: string } | undefined,
): Promise<oauth.ClientAuth> {
  switch (client.authMethod) {
    case 'private_key_jwt': {
      if (key === undefined) throw new McpError('config', 'oauth config: private_key_jwt needs privateKey');
      return oauth.PrivateKeyJwt(await importPrivateKey(key.pem, key.algorithm));
    }
    case 'client_secret_basic':
    case 'client_secret_post': {
      if (client.clientSecret === undefined)
        throw new McpError(
          'config',
          `oauth: the client is registered for ${client.authMethod} but has no secret`,
        );
      return client.authMethod === 'client_secret_basic'
        ? secretBasic(client.clientSecret)
        : oauth.ClientSecretPost(client.clientSecret);
    }
    default:
      return oauth.None();
  }
}

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1): id and secret percent-encoded, then base64.
 * `encodeURIComponent` leaves `-_.!~*'()` as they are, as most servers (and the official SDK) expect;
 * oauth4webapi's own encoding escapes them too, which some servers do not decode.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
  };
}
