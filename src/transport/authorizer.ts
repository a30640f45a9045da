/**
 * The authorization seam of network transports (Streamable HTTP today): an `Authorizer` is asked for the `Authorization` value
 * before every request and told about every 401 and 403 with the parsed challenges. OAuth plugs in here;
 * a static `authToken` is the simplest authorizer. Spec: S25/basic/authorization.
 */
import type { AuthChallenge } from '../errors/index.js';
import type { SecretRegistration } from '../internal/known-secrets.js';

/** The request an `Authorization` value is asked for. */
export interface AuthorizationRequest {
  /** The MCP endpoint (the query may carry secrets: never log it). */
  readonly url: URL;
  readonly method: 'POST' | 'GET' | 'DELETE';
}

/** A 401 or 403 answer to a request, as the authorizer is told about it. */
export interface AuthRefusal {
  readonly status: 401 | 403;
  readonly url: URL;
  readonly method: 'POST' | 'GET' | 'DELETE';
  /** Every challenge of the `WWW-Authenticate` header, parsed; empty when there was none. */
  readonly challenges: readonly AuthChallenge[];
  /** The Bearer (or DPoP) challenge, else the first one. */
  readonly challenge: AuthChallenge | undefined;
  /** The `Authorization` value that was refused, when one was sent: compare, never log. */
  readonly authorization: string | undefined;
  /** The response's `DPoP-Nonce` header (RFC 9449 §9), when it had one. */
  readonly dpopNonce: string | undefined;
}

/**
 * An `Authorization` value with the other headers that must go with it on this one request, such as a
 * DPoP proof (RFC 9449): `{ authorization: 'DPoP …', headers: { dpop: '<proof>' } }`.
 */
export interface AuthorizationHeaders {
  readonly authorization: string;
  /** Extra request headers (lowercase names); they cannot replace a header the transport manages. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What `Authorizer.authorization()` answers: a header value, a value with its companion headers, or nothing. */
export type AuthorizationValue = string | AuthorizationHeaders | undefined;

/**
 * Supplies the `Authorization` header of each HTTP request. Both methods may be asynchronous (a token
 * refresh); a synchronous answer costs nothing extra.
 */
export interface Authorizer {
  /** The `Authorization` value for the next request, or `undefined` to send none. */
  authorization(request: AuthorizationRequest): AuthorizationValue | Promise<AuthorizationValue>;
  /**
   * Told about each 401/403. Resolve `true` to have that one request sent once more with a fresh
   * `authorization()` (a 401 or 403 is refused before processing, so this is not a replay); anything
   * else lets the error through as `kind: 'auth_required'` or `'forbidden'`. At most one resend per request.
   * A thrown `McpError` reaches the caller as it is (e.g. "log in again"); any other throw is wrapped.
   */
  refused?(refusal: AuthRefusal): boolean | undefined | Promise<boolean | undefined>;
  /**
   * The values this authorizer holds that no text may show (a client secret, a refresh token), asked
   * after each `authorization()` and `refused()`: the connection masks them, as it masks the
   * `Authorization` values themselves, in every server text it reports (see `redact`). Optional.
   */
  secrets?(): Iterable<string | undefined>;
}

/**
 * `authorizer`, with every value it hands out (the credential of each `Authorization` value, the
 * companion headers' values) and every value of its `secrets()` added to `secrets`: at once, and after
 * each `authorization()` and `refused()`.
 */
export function maskingAuthorizer(authorizer: Authorizer, secrets: SecretRegistration): Authorizer {
  const learnOwn = (): void => {
    if (authorizer.secrets !== undefined) secrets.add(authorizer.secrets());
  };
  const learn = (value: AuthorizationValue): AuthorizationValue => {
    if (typeof value === 'string') secrets.add(credentialOf(value));
    // A JavaScript authorizer may answer null: nothing to learn from it.
    else if (typeof value === 'object' && value !== null) {
      secrets.add(credentialOf(value.authorization));
      if (value.headers !== undefined) secrets.add(Object.values(value.headers));
    }
    learnOwn();
    return value;
  };
  // Its own secrets (a client secret) are known before the first request: a login may fail quoting one.
  learnOwn();
  const masking: Authorizer = {
    authorization: (request) => {
      const value = authorizer.authorization(request);
      return value instanceof Promise ? value.then(learn) : learn(value);
    },
  };
  const refused = authorizer.refused;
  if (refused !== undefined) {
    masking.refused = async (refusal) => {
      const retry = await refused.call(authorizer, refusal);
      learnOwn();
      return retry;
    };
  }
  return masking;
}

/** The whole value and the credential after its scheme (`Bearer <credential>`). */
function credentialOf(value: string): string[] {
  const space = value.indexOf(' ');
  return space < 0 ? [value] : [value, value.slice(space + 1).trim()];
}

/** The simplest authorizer: the same bearer token on every request. */
export function bearerAuthorizer(token: string): Authorizer {
  const value = `Bearer ${token}`;
  return { authorization: () => value };
}
