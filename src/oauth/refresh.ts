/**
 * The refresh of a stored token, under the store's lock for its credential: a waiter that finds a newer
 * token in the store (another process won) uses it and sends nothing; a refused refresh drops the dead
 * credential (`invalid_grant`) or the forgotten client (`invalid_client`). The single-flight in this
 * process is the `OAuth` class's.
 */
import type * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { Clock } from '../internal/clock.js';
import type { CredentialStore } from '../store/types.js';
import { type ClientContext, clientOf, forgetClient } from './known-client.js';
import { asStored, expired, keys, readToken, type StoredClient, type StoredToken } from './records.js';
import { refresh, type TokenEndpoint, toStored } from './tokens.js';

/** What a refresh needs from its authorizer. */
export interface RefreshContext {
  readonly store: CredentialStore;
  /** The MCP endpoint, as shown in messages. */
  readonly url: string;
  readonly clients: ClientContext;
  /** What tells whether the stored token is still good, and stamps the new one. */
  readonly clock: Clock;
  authorizationServer(issuer: string): Promise<oauth.AuthorizationServer>;
  endpoint(
    as: oauth.AuthorizationServer,
    resource: string,
    client: StoredClient,
    useDpop: boolean,
  ): Promise<TokenEndpoint>;
  /** Told the client the refresh presents (its secrets are masked too). */
  usedClient(client: StoredClient): void;
}

/** Refreshes `sentToken` (or uses the newer one another process stored) and stores the result. */
export async function refreshLocked(context: RefreshContext, sentToken: StoredToken): Promise<StoredToken> {
  const { store } = context;
  const { issuer, resource } = sentToken;
  const key = keys.token(issuer, resource);
  return store.withLock(keys.refreshLock(issuer, resource), async () => {
    const current = readToken(await store.get(key));
    if (
      current !== undefined &&
      current.serial !== sentToken.serial &&
      !expired(current, context.clock.now())
    )
      return current;
    const base = current ?? sentToken;
    if (base.refreshToken === undefined)
      throw new McpError(
        'auth_required',
        `the token for ${context.url} expired and cannot be refreshed: log in again`,
      );
    const as = await context.authorizationServer(issuer);
    const client = await clientOf(context.clients, as, base.clientId);
    context.usedClient(client);
    const endpoint = await context.endpoint(as, resource, client, base.tokenType === 'dpop');
    let response: oauth.TokenEndpointResponse;
    try {
      response = await refresh(endpoint, base.refreshToken);
    } catch (error) {
      const code = (error as McpError).cause as { error?: unknown } | undefined;
      if (code?.error === 'invalid_grant') {
        // Drop the dead credential, unless another process has meanwhile stored a newer one.
        const now = readToken(await store.get(key));
        if (now?.serial === base.serial) await store.delete(key);
      }
      if (code?.error === 'invalid_client') await forgetClient(store, as.issuer, base.clientId);
      throw error;
    }
    const next = toStored(
      response,
      {
        issuer,
        resource,
        clientId: client.clientId,
        requestedScope: base.requestedScope,
        previous: base,
      },
      context.clock.now(),
    );
    await store.set(key, asStored(next));
    return next;
  });
}
