/**
 * The two user logins of `authorization_code`: the browser login on a loopback callback, or the device
 * grant with `device: true`. Both forget a registration the authorization server refused (invalid_client).
 */
import type { Clock } from '../../internal/clock.js';
import { forgetClient } from '../known-client.js';
import type { StoredClient } from '../records.js';
import { type BrowserLogin, browserLogin } from './browser.js';
import { deviceFlow } from './device.js';

/**
 * One user login: what a browser login needs (see `BrowserLogin`), but one client chooser for both ways in,
 * told which it is for; the registration is forgotten here, so no `forgetClient`.
 */
export interface UserLogin extends Omit<BrowserLogin, 'client' | 'forgetClient'> {
  /** The client for a browser login's redirect URI (`device` false) or for the device login. */
  readonly client: (redirectUri: string | undefined, device: boolean) => Promise<StoredClient>;
  /** The authorizer's clock: the device login's poll interval and deadline. */
  readonly clock: Clock;
}

/** Runs the chosen user login to its token response and the client it used. */
export function userLogin(login: UserLogin) {
  const { as, scope, options, defaults, endpoint } = login;
  const forget = (clientId: string) => forgetClient(login.store, as.issuer, clientId);
  if (options.device === true)
    return deviceFlow({
      as,
      scope,
      options,
      defaults,
      clock: login.clock,
      client: () => login.client(undefined, true),
      endpoint,
      forgetClient: forget,
    });
  return browserLogin({
    as,
    resource: login.resource,
    scope,
    config: login.config,
    store: login.store,
    options,
    defaults,
    client: (redirectUri) => login.client(redirectUri, false),
    endpoint,
    forgetClient: forget,
  });
}
