/**
 * What the OAuth flow keeps in its store, and under which keys. Credentials are keyed by the
 * authorization server's issuer and the resource, so every server entry that shares them shares one
 * token (and one refresh); client registrations are keyed by issuer alone (S26 client-registration:
 * a client of one authorization server is never shown to another).
 */
import type { StoredValue } from '../store/types.js';

// The records are type aliases, not interfaces: an object type alias is plain data to the compiler (it has
// the implicit index signature of `StoredValue`), so a record goes into the store as it is.

/** A client this process may use at one authorization server. */
export type StoredClient = {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** `client_secret_basic`, `client_secret_post`, `none` or `private_key_jwt`. */
  readonly authMethod: string;
  readonly via: 'pre-registered' | 'cimd' | 'dcr';
  /** For a registered client: the redirect URI it was registered with. */
  readonly redirectUri?: string;
  /**
   * For a registered client, where the server offers RFC 7592 management: its client configuration
   * endpoint and the token to read it with (a secret, as `clientSecret` is).
   */
  readonly registrationClientUri?: string;
  readonly registrationAccessToken?: string;
};

export type StoredToken = {
  readonly accessToken: string;
  /** `bearer` or `dpop`, lowercase. */
  readonly tokenType: string;
  readonly refreshToken?: string;
  /** Epoch ms; absent when the server gave no `expires_in`. */
  readonly expiresAt?: number;
  /** Seconds of validity the server granted, to choose a refresh margin. */
  readonly lifetime?: number;
  /** Granted scopes (space-separated), else the requested ones. */
  readonly scope?: string;
  /** What was asked for, kept for a later step-up (the union of both). */
  readonly requestedScope?: string;
  readonly issuer: string;
  readonly resource: string;
  /** The client the token was issued to (a refresh must present the same one). */
  readonly clientId: string;
  /** Increments on every write: a waiter compares it to tell a newer token from the one it sent. */
  readonly serial: number;
  readonly obtainedAt: number;
};

/** Which issuer and resource an MCP endpoint was last authorized with. */
export type StoredBinding = {
  readonly issuer: string;
  readonly resource: string;
};

export const keys = {
  client: (issuer: string) => `client ${issuer}`,
  /** The client a stored token was issued to, so another process (with another config) can refresh it. */
  issuedTo: (issuer: string, clientId: string) => `issued-to ${issuer} ${clientId}`,
  token: (issuer: string, resource: string) => `token ${issuer} ${resource}`,
  binding: (endpoint: string) => `server ${endpoint}`,
  dpop: (issuer: string) => `dpop ${issuer}`,
  refreshLock: (issuer: string, resource: string) => `refresh ${issuer} ${resource}`,
};

/** A record as the store takes it: the compiler checks it is plain data (see the note above the records). */
export function asStored(value: StoredValue): StoredValue {
  return value;
}

// What a stored record is recognised by. The store holds what this module wrote (or an older version did),
// so the fields that tell the record kinds apart are checked, not every field.

function isToken(value: StoredValue): value is StoredToken {
  return typeof value['accessToken'] === 'string' && typeof value['issuer'] === 'string';
}

function isClient(value: StoredValue): value is StoredClient {
  return typeof value['clientId'] === 'string';
}

function isBinding(value: StoredValue): value is StoredBinding {
  return typeof value['issuer'] === 'string' && typeof value['resource'] === 'string';
}

export function readToken(value: StoredValue | undefined): StoredToken | undefined {
  if (value === undefined || !isToken(value)) return undefined;
  // An expiry that is not a finite number (an older version stored \`expires_in: 1e308\` as null) is no
  // expiry at all: the server's 401 says when the token is done.
  if (value.expiresAt === undefined || Number.isFinite(value.expiresAt)) return value;
  const { expiresAt: _unreadable, lifetime: _lifetime, ...rest } = value;
  return rest;
}

export function readClient(value: StoredValue | undefined): StoredClient | undefined {
  return value !== undefined && isClient(value) ? value : undefined;
}

export function readBinding(value: StoredValue | undefined): StoredBinding | undefined {
  return value !== undefined && isBinding(value) ? value : undefined;
}

/**
 * True when the token should not be sent any more at `now` (the authorizer's clock): past its expiry, less a
 * margin for long-lived ones.
 */
export function expired(token: StoredToken, now: number): boolean {
  if (token.expiresAt === undefined) return false;
  const margin = (token.lifetime ?? 0) >= 120 ? 30_000 : 0;
  return now >= token.expiresAt - margin;
}
