/**
 * The two user logins of `authorization_code`: the browser login on a loopback callback, or the device
 * grant with `device: true`. Both forget a registration the authorization server refused (invalid_client).
 */
import type * as oauth from 'oauth4webapi';
import type { CredentialStore } from '../../store/types.js';
import type { CheckedConfig } from '../config.js';
import { forgetClient } from '../known-client.js';
import type { LoginOptions, OAuthOptions } from '../options.js';
import type { StoredClient } from '../records.js';
import type { TokenEndpoint } from '../tokens.js';
import { browserLogin } from './browser.js';
import { deviceFlow } from './device.js';

/** One user login: the authorization server, what to ask for, and the authorizer's parts it uses. */
export interface UserLogin {
  readonly as: oauth.AuthorizationServer;
  /** The MCP server's resource identifier. */
  readonly resource: string;
  readonly scope: string | undefined;
  readonly config: CheckedConfig;
  readonly store: CredentialStore;
  readonly options: LoginOptions;
  /** The authorizer's own options: its prompt and opener, where `options` gives none. */
  readonly defaults: OAuthOptions;
  /** The client for a browser login's redirect URI (`device` false) or for the device login. */
  readonly client: (redirectUri: string | undefined, device: boolean) => Promise<StoredClient>;
  /** The token endpoint, as this client. */
  readonly endpoint: (client: StoredClient) => Promise<TokenEndpoint>;
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
