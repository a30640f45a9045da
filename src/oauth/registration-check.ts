/**
 * Is a stored dynamic registration still known to its authorization server? Servers that keep
 * registrations in memory (the official SDK's example server, fastmcp's OAuth proxy) forget them on a
 * restart, and the browser then stops at their `invalid_client` page: the login would wait out its whole
 * deadline. Where the server gave a client configuration endpoint at registration (RFC 7592 §2), one GET
 * before the browser opens tells: RFC 7592 §2.1 answers a client the server does not know with 401 (and
 * some servers with 404). Any other answer, or none, is no verdict: the stored registration is used.
 */
import { McpError } from '../errors/index.js';
import { allowedUrl, type OAuthHttp } from './http.js';
import type { StoredClient } from './records.js';

/**
 * The management fields of a registration answer, kept only when both are usable and the URI is on the
 * registration endpoint's origin: the token is never sent anywhere else.
 */
export function managementOf(
  registered: Readonly<Record<string, unknown>>,
  registrationEndpoint: string,
): Pick<StoredClient, 'registrationClientUri' | 'registrationAccessToken'> {
  const uri = registered['registration_client_uri'];
  const token = registered['registration_access_token'];
  if (typeof uri !== 'string' || typeof token !== 'string' || token === '') return {};
  try {
    const url = new URL(uri);
    if (!allowedUrl(url) || url.origin !== new URL(registrationEndpoint).origin) return {};
  } catch {
    return {};
  }
  return { registrationClientUri: uri, registrationAccessToken: token };
}

/** True when the authorization server says it no longer knows this registration (401 or 404). */
export async function registrationForgotten(http: OAuthHttp, client: StoredClient): Promise<boolean> {
  const uri = client.registrationClientUri;
  const token = client.registrationAccessToken;
  if (uri === undefined || token === undefined) return false;
  let status: number;
  try {
    const response = await http.request(uri, {
      method: 'GET',
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    status = response.status;
    await response.body?.cancel().catch(() => {});
  } catch (error) {
    if (error instanceof McpError) return false; // unreachable or refused here: no verdict
    throw error;
  }
  return status === 401 || status === 404;
}
