/**
 * What `login()` and `status()` tell about a login, made from the stored token: issuer, resource, scopes,
 * expiry, whether it can be refreshed; never a token, a code or a secret.
 */
import { shown } from './http.js';
import { expired, type StoredToken } from './records.js';
import { splitScopes } from './scopes.js';

export interface LoginResult {
  readonly issuer: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  /** ISO time, when the server said. */
  readonly expiresAt: string | undefined;
  readonly refreshable: boolean;
}

/** What `status()` tells: never a token, a code or a secret. */
export interface OAuthStatus {
  readonly url: string;
  readonly loggedIn: boolean;
  readonly issuer: string | undefined;
  readonly resource: string | undefined;
  readonly scopes: readonly string[];
  readonly expiresAt: string | undefined;
  readonly expired: boolean;
  readonly refreshable: boolean;
  readonly tokenType: string | undefined;
  readonly store: string;
}

/** The result of a login, from the token it stored. */
export function loginResult(token: StoredToken): LoginResult {
  return {
    issuer: token.issuer,
    resource: token.resource,
    scopes: splitScopes(token.scope),
    expiresAt: token.expiresAt === undefined ? undefined : new Date(token.expiresAt).toISOString(),
    refreshable: token.refreshToken !== undefined,
  };
}

/**
 * The status of the endpoint `url` at `now`, from its stored token (undefined: none), kept in the store
 * `store`.
 */
export function statusOf(
  url: string,
  token: StoredToken | undefined,
  store: string,
  now: number,
): OAuthStatus {
  const isExpired = token !== undefined && expired(token, now);
  return {
    url,
    loggedIn: token !== undefined && (!isExpired || token.refreshToken !== undefined),
    issuer: token?.issuer,
    resource: token === undefined ? undefined : shown(token.resource),
    scopes: splitScopes(token?.scope),
    expiresAt: token?.expiresAt === undefined ? undefined : new Date(token.expiresAt).toISOString(),
    expired: isExpired,
    refreshable: token?.refreshToken !== undefined,
    tokenType: token?.tokenType,
    store,
  };
}
