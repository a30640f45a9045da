/**
 * The binding of an MCP endpoint to a stored credential (its issuer and resource): reading the bound
 * token, adopting one another server entry stored for the same issuer and resource, and removing it.
 */
import type { Clock } from '../internal/clock.js';
import type { CredentialStore } from '../store/types.js';
import {
  asStored,
  expired,
  keys,
  readBinding,
  readToken,
  type StoredBinding,
  type StoredToken,
} from './records.js';

/** The token bound to `endpoint` (as keyed), read afresh: another process may have written a newer one. */
export async function boundToken(store: CredentialStore, endpoint: string): Promise<StoredToken | undefined> {
  const binding = await bindingOf(store, endpoint);
  return binding && readToken(await store.get(keys.token(binding.issuer, binding.resource)));
}

/**
 * Binds `endpoint` to the stored token for `issuer` and `resource`, when there is a usable one (on `clock`)
 * other than the one refused (`refused`, what was sent). Resolves that token, or undefined.
 */
export async function adoptToken(
  store: CredentialStore,
  endpoint: string,
  place: { readonly issuer: string; readonly resource: string },
  refused: string | undefined,
  clock: Clock,
): Promise<StoredToken | undefined> {
  const { issuer, resource } = place;
  const token = readToken(await store.get(keys.token(issuer, resource)));
  if (
    token === undefined ||
    sent(refused, token) ||
    (expired(token, clock.now()) && token.refreshToken === undefined)
  )
    return undefined;
  await store.set(keys.binding(endpoint), asStored({ issuer, resource }));
  return token;
}

/** The binding of `endpoint` (as keyed): the issuer and resource of its credential. */
export async function bindingOf(
  store: CredentialStore,
  endpoint: string,
): Promise<StoredBinding | undefined> {
  return readBinding(await store.get(keys.binding(endpoint)));
}

/** Forgets the tokens of `binding` and the binding of `endpoint`. Resolves true when there were some. */
export async function removeLogin(
  store: CredentialStore,
  endpoint: string,
  binding: StoredBinding | undefined,
): Promise<boolean> {
  if (binding === undefined) return false;
  const key = keys.token(binding.issuer, binding.resource);
  const had = (await store.get(key)) !== undefined;
  await store.withLock(keys.refreshLock(binding.issuer, binding.resource), () => store.delete(key));
  await store.delete(keys.binding(endpoint));
  return had;
}

/** True when `authorization` (what was sent) carries this token. */
export function sent(authorization: string | undefined, token: StoredToken): boolean {
  return (
    authorization !== undefined && authorization.slice(authorization.indexOf(' ') + 1) === token.accessToken
  );
}
