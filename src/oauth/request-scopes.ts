/**
 * The scopes a new token is requested with (see `chooseScopes`), and the refusal of a step-up that
 * would ask again for scopes already requested: logging in again would not help there.
 */
import type * as oauth from 'oauth4webapi';
import type { AuthChallenge } from '../errors/index.js';
import { McpError } from '../errors/index.js';
import type { CredentialStore } from '../store/types.js';
import type { ProtectedResource } from './discovery.js';
import { keys, readToken, type StoredToken } from './records.js';
import { chooseScopes, covered } from './scopes.js';

/** What a new token at this server is asked for. */
export interface ScopeRequest {
  readonly store: CredentialStore;
  /** The MCP endpoint, as shown in messages. */
  readonly url: string;
  readonly configured: readonly string[] | undefined;
  readonly resource: ProtectedResource;
  readonly as: oauth.AuthorizationServer;
  readonly challenge: AuthChallenge | undefined;
  /** A user login (rather than a non-interactive grant): one that wants a refresh token. */
  readonly user: boolean;
}

/** The stored token this one replaces (if any), and the scope to request. */
export async function scopesToRequest(
  request: ScopeRequest,
): Promise<{ previous: StoredToken | undefined; scope: string | undefined }> {
  const { as, resource, challenge } = request;
  const previous = readToken(await request.store.get(keys.token(as.issuer, resource.resource)));
  const stepUp = challenge?.error === 'insufficient_scope';
  if (stepUp && covered(challenge.scope, previous?.requestedScope))
    throw new McpError(
      'forbidden',
      `${request.url} still refuses with insufficient_scope for scopes that were already requested: logging in again will not help`,
      { challenge },
    );
  const scope = chooseScopes({
    configured: request.configured,
    challenge: challenge?.scope,
    resourceSupported: resource.scopesSupported,
    previous: stepUp ? previous?.requestedScope : undefined,
    serverSupported: as.scopes_supported,
    wantsRefresh: request.user,
  });
  return { previous, scope };
}
