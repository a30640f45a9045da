/**
 * The OAuth config: plain data, checked once when `createOAuth()` is called. Errors name the
 * field and never echo a value (client secrets, private keys and assertions are secrets).
 */
import { McpError } from '../errors/index.js';
import { allowedUrl } from './http.js';

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise';

/** The identity provider of enterprise-managed authorization (an ID-JAG by token exchange, then jwt-bearer). */
export interface EnterpriseIdp {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The user's ID token at the IdP (a secret). */
  readonly idToken: string;
}

export interface OAuthConfig {
  /** The MCP endpoint this authorizer serves. */
  readonly url: string;
  /** A pre-registered client id (used first, never replaced). */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /**
   * A Client ID Metadata Document URL used as the client id where the authorization server supports
   * them; `false` turns CIMD off. `createOAuth` offers the product's own document when neither this nor
   * `clientId` is given.
   */
  readonly clientMetadataUrl?: string | false;
  /** Scopes to ask for; by default the challenge's, else the server's `scopes_supported`. */
  readonly scopes?: readonly string[];
  /** The loopback callback port (default 0: the system picks one). */
  readonly redirectPort?: number;
  /** The loopback callback host (default `127.0.0.1`). */
  readonly redirectHost?: string;
  /** Allow dynamic client registration (RFC 7591) when no other client is at hand (default false). */
  readonly dcr?: boolean;
  /** Shown to the user by the authorization server for a registered client (default `autos-mcp`). */
  readonly clientName?: string;
  readonly grant?: OAuthGrant;
  /** PKCS8 PEM: authenticate to the token endpoint with `private_key_jwt`. */
  readonly privateKey?: string;
  /** The JWS algorithm of `privateKey` (default ES256). */
  readonly signingAlgorithm?: string;
  /** A JWT for the `jwt_bearer` grant (e.g. a workload identity token). */
  readonly assertion?: string;
  readonly idp?: EnterpriseIdp;
  /** RFC 9449 proof of possession; on by default where the server advertises it. */
  readonly dpop?: boolean;
}

/** The product's own Client ID Metadata Document, offered by `createOAuth`. */
export const DEFAULT_CLIENT_METADATA_URL = 'https://aau.cn/oauth/mcp/client-metadata.json';

const GRANTS: ReadonlySet<string> = new Set([
  'authorization_code',
  'client_credentials',
  'jwt_bearer',
  'enterprise',
]);
const ALGORITHMS: ReadonlySet<string> = new Set([
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
]);
const KNOWN: ReadonlySet<string> = new Set([
  'url',
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'scopes',
  'redirectPort',
  'redirectHost',
  'dcr',
  'clientName',
  'grant',
  'privateKey',
  'signingAlgorithm',
  'assertion',
  'idp',
  'dpop',
]);

export interface CheckedConfig extends OAuthConfig {
  readonly endpoint: URL;
  readonly grant: OAuthGrant;
  readonly redirectHost: string;
  readonly redirectPort: number;
}

function fail(message: string): never {
  throw new McpError('config', `oauth config: ${message}`);
}

/** Any object (a JavaScript caller may hand in anything), read field by field. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function optionalString(config: Record<string, unknown>, name: string): void {
  const value = config[name];
  if (value !== undefined && (typeof value !== 'string' || value === ''))
    fail(`${name} must be a non-empty string`);
}

export function checkConfig(input: OAuthConfig): CheckedConfig {
  if (typeof input !== 'object' || input === null) fail('expected an object');
  const config: Record<string, unknown> = { ...input };
  for (const key of Object.keys(config))
    if (!KNOWN.has(key)) fail(`unknown field ${JSON.stringify(key.slice(0, 40))}`);
  if (typeof input.url !== 'string') fail('url is required');
  let endpoint: URL;
  try {
    endpoint = new URL(input.url);
  } catch {
    fail('url is not a URL');
  }
  if (!allowedUrl(endpoint)) fail('url must be https (http only on loopback)');
  for (const name of [
    'clientId',
    'clientSecret',
    'privateKey',
    'signingAlgorithm',
    'assertion',
    'clientName',
    'redirectHost',
  ])
    optionalString(config, name);
  const cimd = input.clientMetadataUrl;
  if (cimd !== undefined && cimd !== false) {
    if (typeof cimd !== 'string') fail('clientMetadataUrl must be an https URL or false');
    let parsed: URL | undefined;
    try {
      parsed = new URL(cimd);
    } catch {}
    if (parsed?.protocol !== 'https:' || parsed.pathname === '/' || parsed.hash !== '')
      fail('clientMetadataUrl must be an https URL with a path and no fragment');
  }
  if (
    input.scopes !== undefined &&
    (!Array.isArray(input.scopes) ||
      input.scopes.some((s) => typeof s !== 'string' || /\s/.test(s) || s === ''))
  )
    fail('scopes must be an array of scope names without spaces');
  const port = input.redirectPort ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail('redirectPort must be an integer from 0 to 65535');
  const host = input.redirectHost ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
    fail('redirectHost must be a loopback host (127.0.0.1, localhost or ::1)');
  const grant = input.grant ?? 'authorization_code';
  if (!GRANTS.has(grant)) fail(`grant must be one of ${[...GRANTS].join(', ')}`);
  if (input.dcr !== undefined && typeof input.dcr !== 'boolean') fail('dcr must be a boolean');
  if (input.dpop !== undefined && typeof input.dpop !== 'boolean') fail('dpop must be a boolean');
  if (input.signingAlgorithm !== undefined && !ALGORITHMS.has(input.signingAlgorithm))
    fail(`signingAlgorithm must be one of ${[...ALGORITHMS].join(', ')}`);
  if (input.privateKey !== undefined && !input.privateKey.includes('-----BEGIN PRIVATE KEY-----'))
    fail('privateKey must be a PKCS8 PEM ("-----BEGIN PRIVATE KEY-----")');
  if (input.clientSecret !== undefined && input.clientId === undefined) fail('clientSecret needs clientId');
  if (grant === 'client_credentials' && input.clientId === undefined)
    fail('the client_credentials grant needs clientId');
  if (grant === 'client_credentials' && input.clientSecret === undefined && input.privateKey === undefined)
    fail('the client_credentials grant needs clientSecret or privateKey');
  if (grant === 'jwt_bearer' && input.assertion === undefined) fail('the jwt_bearer grant needs assertion');
  if (grant === 'enterprise') {
    const idp: unknown = input.idp;
    if (!isObject(idp)) fail('the enterprise grant needs idp');
    for (const name of ['issuer', 'tokenEndpoint', 'clientId', 'idToken'])
      if (typeof idp[name] !== 'string' || idp[name] === '') fail(`idp.${name} must be a non-empty string`);
    for (const name of ['issuer', 'tokenEndpoint']) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(String(idp[name]));
      } catch {}
      if (parsed === undefined || !allowedUrl(parsed)) fail(`idp.${name} must be an https URL`);
    }
    if (input.clientId === undefined) fail('the enterprise grant needs clientId');
  }
  return Object.freeze({ ...input, endpoint, grant, redirectHost: host, redirectPort: port });
}
