/**
 * The token endpoint of an authorization server as a client presents itself there: its id and
 * authentication method, its credential (a secret or a signed assertion with the configured key), and
 * the DPoP key when the token is to be DPoP-bound.
 */
import type * as oauth from 'oauth4webapi';
import { clientAuthentication } from './client-auth.js';
import type { CheckedConfig } from './config.js';
import type { OAuthHttp } from './http.js';
import type { StoredClient } from './records.js';
import type { TokenEndpoint } from './tokens.js';

export async function tokenEndpoint(
  config: CheckedConfig,
  http: OAuthHttp,
  as: oauth.AuthorizationServer,
  resource: string,
  client: StoredClient,
  dpop: (() => Promise<oauth.DPoPHandle>) | undefined,
): Promise<TokenEndpoint> {
  const key =
    config.privateKey === undefined
      ? undefined
      : { pem: config.privateKey, algorithm: config.signingAlgorithm ?? 'ES256' };
  return {
    as,
    client: { client_id: client.clientId, token_endpoint_auth_method: client.authMethod },
    auth: await clientAuthentication(client, key),
    http,
    dpop: dpop === undefined ? undefined : await dpop(),
    resource,
  };
}
