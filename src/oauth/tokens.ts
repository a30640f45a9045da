/**
 * Requests at a token endpoint: the authorization code, refresh, client credentials, jwt-bearer
 * (RFC 7523) and token exchange (RFC 8693, for enterprise-managed authorization), each with the
 * `resource` parameter (RFC 8707), DPoP where bound (retried once on `use_dpop_nonce`), and OAuth errors
 * turned into autos-mcp errors that name the error code, never a token or a code.
 */
import * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { OAuthHttp } from './http.js';
import type { StoredToken } from './records.js';
import { oauthErrorCode } from './registration.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export interface TokenEndpoint {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  readonly http: OAuthHttp;
  readonly dpop: oauth.DPoPHandle | undefined;
  readonly resource: string;
}

type Grant = (options: oauth.TokenEndpointRequestOptions) => Promise<oauth.TokenEndpointResponse>;

function requestOptions(
  endpoint: TokenEndpoint,
  extra: Record<string, string>,
): oauth.TokenEndpointRequestOptions {
  return {
    additionalParameters: { resource: endpoint.resource, ...extra },
    [oauth.customFetch]: endpoint.http.customFetch,
    [oauth.allowInsecureRequests]: true,
    ...(endpoint.dpop !== undefined ? { DPoP: endpoint.dpop } : {}),
  };
}

/** Runs a grant, once more after a `use_dpop_nonce` answer (RFC 9449 §8), and maps failures. */
async function run(
  endpoint: TokenEndpoint,
  what: string,
  grant: Grant,
  extra: Record<string, string>,
): Promise<oauth.TokenEndpointResponse> {
  const options = requestOptions(endpoint, extra);
  try {
    try {
      return await grant(options);
    } catch (error) {
      if (endpoint.dpop === undefined || !oauth.isDPoPNonceError(error)) throw error;
      return await grant(options);
    }
  } catch (cause) {
    throw tokenError(endpoint, what, cause);
  }
}

/**
 * A copy of an OAuth library failure with its name, message, `code` and OAuth `error` only: the
 * original holds the response and its body, which can carry tokens, and a cause is part of the error.
 */
export function safeCause(cause: unknown): Error & { code?: string; error?: string } {
  const source = (typeof cause === 'object' && cause !== null ? cause : {}) as Record<string, unknown>;
  const message = typeof source['message'] === 'string' ? source['message'] : 'OAuth failure';
  const copy = new Error(message) as Error & { code?: string; error?: string };
  copy.name = typeof source['name'] === 'string' ? source['name'] : 'Error';
  if (typeof source['code'] === 'string') copy.code = source['code'];
  if (typeof source['error'] === 'string') copy.error = source['error'];
  else {
    // A 401 with `WWW-Authenticate: Basic error="invalid_client"` carries the code in its challenge.
    const challenges = cause instanceof oauth.WWWAuthenticateChallengeError ? cause.cause : [];
    const code = challenges.map((c) => c.parameters.error).find((e) => typeof e === 'string');
    if (code !== undefined) copy.error = code;
  }
  return copy;
}

export function tokenError(
  endpoint: { as: oauth.AuthorizationServer },
  what: string,
  original: unknown,
): McpError {
  if (original instanceof McpError) return original;
  const cause = safeCause(original);
  const code = cause.error;
  if (code === 'invalid_grant')
    return new McpError(
      'auth_required',
      `${what} at ${endpoint.as.issuer} was refused (invalid_grant): log in again`,
      {
        delivery: 'delivered',
        cause,
      },
    );
  if (code === 'invalid_client')
    return new McpError(
      'auth_required',
      `${what} at ${endpoint.as.issuer} was refused (invalid_client): the authorization server does not know this client`,
      {
        delivery: 'delivered',
        cause,
      },
    );
  if (original instanceof oauth.ResponseBodyError || original instanceof oauth.WWWAuthenticateChallengeError)
    return new McpError('auth_required', `${what} at ${endpoint.as.issuer} failed${oauthErrorCode(cause)}`, {
      delivery: 'delivered',
      cause,
    });
  return new McpError(
    'protocol',
    `${what} at ${endpoint.as.issuer} got an answer that is not a valid token response`,
    {
      delivery: 'delivered',
      cause,
    },
  );
}

export function authorizationCode(
  endpoint: TokenEndpoint,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
): Promise<oauth.TokenEndpointResponse> {
  return run(
    endpoint,
    'the authorization code exchange',
    async (options) =>
      oauth.processAuthorizationCodeResponse(
        endpoint.as,
        endpoint.client,
        await oauth.authorizationCodeGrantRequest(
          endpoint.as,
          endpoint.client,
          endpoint.auth,
          callback,
          redirectUri,
          verifier,
          options,
        ),
      ),
    {},
  );
}

export function refresh(endpoint: TokenEndpoint, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  return run(
    endpoint,
    'the token refresh',
    async (options) =>
      oauth.processRefreshTokenResponse(
        endpoint.as,
        endpoint.client,
        await oauth.refreshTokenGrantRequest(
          endpoint.as,
          endpoint.client,
          endpoint.auth,
          refreshToken,
          options,
        ),
      ),
    {},
  );
}

export function clientCredentials(
  endpoint: TokenEndpoint,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  return run(
    endpoint,
    'the client credentials grant',
    async (options) =>
      oauth.processClientCredentialsResponse(
        endpoint.as,
        endpoint.client,
        await oauth.clientCredentialsGrantRequest(
          endpoint.as,
          endpoint.client,
          endpoint.auth,
          scope ? { scope } : {},
          options,
        ),
      ),
    {},
  );
}

export function jwtBearer(
  endpoint: TokenEndpoint,
  assertion: string,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  return run(
    endpoint,
    'the jwt-bearer grant',
    async (options) =>
      oauth.processGenericTokenEndpointResponse(
        endpoint.as,
        endpoint.client,
        await oauth.genericTokenEndpointRequest(
          endpoint.as,
          endpoint.client,
          endpoint.auth,
          JWT_BEARER,
          { assertion, ...(scope ? { scope } : {}) },
          options,
        ),
      ),
    {},
  );
}

export function deviceCode(endpoint: TokenEndpoint, code: string): Promise<Response> {
  return oauth.deviceCodeGrantRequest(
    endpoint.as,
    endpoint.client,
    endpoint.auth,
    code,
    requestOptions(endpoint, {}),
  );
}

/**
 * Longest token lifetime believed: one year. A larger `expires_in` (`1e308`) would make an expiry past what
 * a date or JSON can hold (it would be stored as `null`, and read back as long expired).
 */
export const MAX_TOKEN_LIFETIME_S = 365 * 24 * 3600;

/** `expires_in` as seconds of validity: clamped to a year; absent when not a positive finite number. */
export function tokenLifetime(expiresIn: unknown): number | undefined {
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) return undefined;
  return Math.min(expiresIn, MAX_TOKEN_LIFETIME_S);
}

/**
 * Turns a token response received at `now` (the authorizer's clock) into what is stored; `previous` keeps a
 * refresh token the server did not rotate.
 */
export function toStored(
  response: oauth.TokenEndpointResponse,
  context: {
    issuer: string;
    resource: string;
    clientId: string;
    requestedScope: string | undefined;
    previous: StoredToken | undefined;
  },
  now: number,
): StoredToken {
  const refreshToken = response.refresh_token ?? context.previous?.refreshToken;
  const lifetime = tokenLifetime(response.expires_in);
  const scope = typeof response.scope === 'string' ? response.scope : context.requestedScope;
  return {
    accessToken: response.access_token,
    tokenType: response.token_type.toLowerCase(),
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(lifetime !== undefined ? { expiresAt: now + lifetime * 1000, lifetime } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(context.requestedScope !== undefined ? { requestedScope: context.requestedScope } : {}),
    issuer: context.issuer,
    resource: context.resource,
    clientId: context.clientId,
    serial: (context.previous?.serial ?? 0) + 1,
    obtainedAt: now,
  };
}
