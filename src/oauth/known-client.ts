/**
 * The client a stored token was issued to, found again for a refresh (pre-registered, a Client ID Metadata
 * Document, or a registration in the store), and forgetting a registration the authorization server no
 * longer takes.
 */
import type * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { CredentialStore } from '../store/types.js';
import type { CheckedConfig } from './config.js';
import type { OAuthHttp } from './http.js';
import { keys, readClient, type StoredClient } from './records.js';
import { chooseClient } from './registration.js';

/** What finding a client needs of the authorizer. */
export interface ClientContext {
  readonly config: CheckedConfig;
  readonly metadataUrl: string | undefined;
  readonly store: CredentialStore;
  readonly http: OAuthHttp;
  /** The MCP endpoint, for messages. */
  readonly url: string;
}

/** The client a stored token was issued to, found again (pre-registered, CIMD, or registered). */
export async function clientOf(
  context: ClientContext,
  as: oauth.AuthorizationServer,
  clientId: string,
): Promise<StoredClient> {
  if (clientId === context.config.clientId || clientId === context.metadataUrl) {
    return chooseClient({
      config: context.config,
      metadataUrl: clientId === context.metadataUrl ? context.metadataUrl : undefined,
      as,
      store: context.store,
      http: context.http,
      redirectUri: undefined,
      device: false,
    });
  }
  const stored = readClient(await context.store.get(keys.client(as.issuer)));
  if (stored?.clientId === clientId) return stored;
  const issued = readClient(await context.store.get(keys.issuedTo(as.issuer, clientId)));
  if (issued !== undefined) {
    if (issued.authMethod === 'client_secret_basic' || issued.authMethod === 'client_secret_post')
      throw new McpError(
        'config',
        `refreshing the token for ${context.url} needs the secret of client ${clientId}: give clientId and clientSecret`,
      );
    return issued;
  }
  throw new McpError(
    'auth_required',
    `the client this token was issued to at ${as.issuer} is no longer known here: log in again`,
  );
}

/** Forgets the registration of `clientId` at `issuer` (refused as invalid_client), if it is the one stored. */
export async function forgetClient(store: CredentialStore, issuer: string, clientId: string): Promise<void> {
  const stored = readClient(await store.get(keys.client(issuer)));
  if (stored?.clientId === clientId) await store.delete(keys.client(issuer));
}

/** Forgets the stored registration at each of `issuers`; true when there was one. */
export async function forgetRegistrations(
  store: CredentialStore,
  issuers: readonly string[],
): Promise<boolean> {
  let had = false;
  for (const issuer of issuers) {
    if (readClient(await store.get(keys.client(issuer))) === undefined) continue;
    await store.delete(keys.client(issuer));
    had = true;
  }
  return had;
}
