/**
 * Storing the token a login or a non-interactive grant got: under the refresh lock of its issuer and
 * resource (a refresh in another process never interleaves), as a fresh credential, with the record of the
 * client it was issued to (never a secret of it) and the binding of the MCP endpoint to that credential.
 */
import type * as oauth from 'oauth4webapi';
import type { CredentialStore } from '../store/types.js';
import { asStored, keys, readToken, type StoredClient, type StoredToken } from './records.js';
import { toStored } from './tokens.js';

/** Where a new token belongs: the MCP endpoint (as keyed), the issuer and the resource. */
export interface TokenPlace {
  readonly endpoint: string;
  readonly issuer: string;
  readonly resource: string;
}

/** Stores `response`, received at `now` (the authorizer's clock), as the credential of `place`. */
export async function saveToken(
  store: CredentialStore,
  place: TokenPlace,
  client: StoredClient,
  response: oauth.TokenEndpointResponse,
  scope: string | undefined,
  previous: StoredToken | undefined,
  now: number,
): Promise<StoredToken> {
  const { issuer, resource } = place;
  const key = keys.token(issuer, resource);
  const token = await store.withLock(keys.refreshLock(issuer, resource), async () => {
    const current = readToken(await store.get(key)) ?? previous;
    const next = toStored(
      response,
      {
        issuer,
        resource,
        clientId: client.clientId,
        requestedScope: scope,
        previous: current,
      },
      now,
    );
    // A fresh login starts a fresh credential: an old refresh token is not carried over.
    const fresh = response.refresh_token === undefined ? withoutRefresh(next) : next;
    await store.set(key, asStored(fresh));
    return fresh;
  });
  // Which client, never its secrets: a pre-registered secret stays in the config that gave it.
  const { clientSecret: _secret, registrationAccessToken: _management, ...issuedTo } = client;
  await store.set(keys.issuedTo(issuer, client.clientId), asStored(issuedTo));
  await store.set(keys.binding(place.endpoint), asStored({ issuer, resource }));
  return token;
}

function withoutRefresh(token: StoredToken): StoredToken {
  const { refreshToken: _dropped, ...rest } = token;
  return rest;
}
