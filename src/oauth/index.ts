/**
 * autos-mcp/oauth: OAuth for MCP servers over HTTP, handed to the client as `connect(config, { auth })`.
 * `createOAuth()` touches no network; a login happens only when you call `login()`.
 * Read docs/oauth.md.
 */

import type { CredentialStore } from '../store/types.js';
import { DEFAULT_CLIENT_METADATA_URL, type OAuthConfig } from './config.js';
import { OAuth } from './oauth.js';
import type { OAuthOptions } from './options.js';
import { keys } from './records.js';

/**
 * The OAuth authorizer (the one way to make one). Without `clientId` or `clientMetadataUrl`, it offers
 * autos-mcp's own Client ID Metadata Document where the authorization server supports them;
 * `clientMetadataUrl: false` makes it neutral (no client identity of its own: give `clientId` or `dcr: true`).
 */
export function createOAuth(config: OAuthConfig, storeOrOptions?: string | OAuthOptions): OAuth {
  return new OAuth(config, options(storeOrOptions), DEFAULT_CLIENT_METADATA_URL);
}

/** The MCP endpoints a store holds logins for (URLs only, never a token), for listings such as `auth status`. */
export async function storedLogins(store: CredentialStore): Promise<string[]> {
  const prefix = keys.binding('');
  return (await store.keys(prefix)).map((key) => key.slice(prefix.length)).sort();
}

function options(storeOrOptions: string | OAuthOptions | undefined): OAuthOptions {
  return typeof storeOrOptions === 'string' ? { storeName: storeOrOptions } : (storeOrOptions ?? {});
}

export { keyringStore, memoryStore, plaintextFileStore } from '../store/index.js';
export type { CredentialStore, LockOptions, StoredValue } from '../store/types.js';
export {
  DEFAULT_CLIENT_METADATA_URL,
  type EnterpriseIdp,
  type OAuthConfig,
  type OAuthGrant,
} from './config.js';
export type { DevicePrompt } from './login/device.js';
export type { OAuth } from './oauth.js';
export type { LoginOptions, LoginPrompt, OAuthOptions } from './options.js';
export type { LoginResult, OAuthStatus } from './status.js';
