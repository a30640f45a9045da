/**
 * Enterprise-managed authorization, step one (SEP-990): the user's ID token is exchanged at the
 * enterprise IdP (RFC 8693 token exchange) for an ID-JAG addressed to the MCP server's authorization
 * server; step two, a jwt-bearer grant with it, is an ordinary token request (tokens.ts).
 */
import { McpError } from '../errors/index.js';
import type { EnterpriseIdp } from './config.js';
import { type OAuthHttp, shown } from './http.js';
import { oauthErrorCode } from './registration.js';
import { TOKEN_EXCHANGE } from './tokens.js';

const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

export async function exchangeForIdJag(
  http: OAuthHttp,
  idp: EnterpriseIdp,
  audience: string,
  resource: string,
  scope: string | undefined,
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    subject_token: idp.idToken,
    subject_token_type: ID_TOKEN,
    audience,
    resource,
  });
  if (scope !== undefined) body.set('scope', scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
    accept: 'application/json',
  };
  if (idp.clientSecret !== undefined) {
    const user = encodeURIComponent(idp.clientId);
    const password = encodeURIComponent(idp.clientSecret);
    headers['authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  } else {
    body.set('client_id', idp.clientId);
  }
  const response = await http.request(idp.tokenEndpoint, { method: 'POST', headers, body: body.toString() });
  let json: Record<string, unknown> = {};
  try {
    json = (await response.json()) as Record<string, unknown>;
  } catch {}
  if (response.status !== 200)
    throw new McpError(
      'auth_required',
      `the token exchange at the identity provider ${shown(idp.tokenEndpoint)} failed${oauthErrorCode(json)}`,
      {
        delivery: 'delivered',
        status: response.status,
      },
    );
  if (typeof json['access_token'] !== 'string' || json['issued_token_type'] !== ID_JAG)
    throw new McpError(
      'protocol',
      `the identity provider ${shown(idp.tokenEndpoint)} did not issue an ID-JAG`,
      { delivery: 'delivered' },
    );
  return json['access_token'];
}
