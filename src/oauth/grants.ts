/**
 * The non-interactive grants an `OAuth` runs by itself: client credentials, jwt-bearer with the configured
 * assertion, and the enterprise grant (an ID-JAG from the identity provider, then jwt-bearer).
 */
import type * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { CheckedConfig } from './config.js';
import { exchangeForIdJag } from './enterprise.js';
import { clientCredentials, jwtBearer, type TokenEndpoint } from './tokens.js';

/** The token response of the configured non-interactive grant at `endpoint`. */
export async function grantResponse(
  config: CheckedConfig,
  endpoint: TokenEndpoint,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  if (config.grant === 'client_credentials') return clientCredentials(endpoint, scope);
  if (config.grant === 'jwt_bearer') return jwtBearer(endpoint, config.assertion ?? '', scope);
  const idp = config.idp;
  if (idp === undefined) throw new McpError('config', 'oauth config: the enterprise grant needs idp');
  const jag = await exchangeForIdJag(endpoint.http, idp, endpoint.as.issuer, endpoint.resource, scope);
  return jwtBearer(endpoint, jag, scope);
}
