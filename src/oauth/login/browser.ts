/**
 * The browser login: the authorization code grant with PKCE (S256) on a loopback callback. The callback
 * server is started, the authorization URL opened (or shown), the response checked (state, and the issuer
 * by RFC 9207) and the code exchanged at the token endpoint.
 */
import * as oauth from 'oauth4webapi';
import { McpError } from '../../errors/index.js';
import type { CredentialStore } from '../../store/types.js';
import type { CheckedConfig } from '../config.js';
import { allowedUrl } from '../http.js';
import {
  defaultPrompt,
  LIBRARY_WORDING,
  LOGIN_TIMEOUT_MS,
  type LoginOptions,
  type OAuthOptions,
  type Wording,
} from '../options.js';
import { keys, readClient, type StoredClient } from '../records.js';
import { splitScopes } from '../scopes.js';
import { authorizationCode, type TokenEndpoint } from '../tokens.js';
import { startLoopback } from './loopback.js';
import { openInBrowser } from './open-url.js';

/** One browser login: the authorization server, what to ask for, and the authorizer's parts it uses. */
export interface BrowserLogin {
  readonly as: oauth.AuthorizationServer;
  /** The MCP server's resource identifier, sent as `resource`. */
  readonly resource: string;
  readonly scope: string | undefined;
  readonly config: CheckedConfig;
  readonly store: CredentialStore;
  readonly options: LoginOptions;
  /** The authorizer's own options: its prompt and opener, where `options` gives none. */
  readonly defaults: OAuthOptions;
  /** The client for this redirect URI (pre-registered, CIMD, or registered now). */
  readonly client: (redirectUri: string) => Promise<StoredClient>;
  /** The token endpoint, as this client. */
  readonly endpoint: (client: StoredClient) => Promise<TokenEndpoint>;
  /** Forgets a registration the authorization server refused (invalid_client). */
  readonly forgetClient: (clientId: string) => Promise<void>;
}

/** Runs the browser login to its token response; the callback server is closed on every way out. */
export async function browserLogin(login: BrowserLogin) {
  const { as, resource, scope, options } = login;
  if (!as.code_challenge_methods_supported?.includes('S256'))
    throw new McpError(
      'auth_required',
      `the authorization server ${as.issuer} does not offer PKCE with S256: refusing to log in there`,
    );
  const authorize = as.authorization_endpoint === undefined ? undefined : new URL(as.authorization_endpoint);
  if (authorize === undefined || !allowedUrl(authorize))
    throw new McpError(
      'auth_required',
      `the authorization server ${as.issuer} has no usable https authorization_endpoint`,
    );
  const stored = readClient(await login.store.get(keys.client(as.issuer)));
  const state = oauth.generateRandomState();
  const loopback = await listen(login.config, stored, options, state);
  try {
    const client = await login.client(loopback.redirectUri);
    // A registration stored by an earlier login that the server may since have forgotten.
    const reused = client.via === 'dcr' && stored?.clientId === client.clientId;
    const verifier = oauth.generateRandomCodeVerifier();
    const query = authorize.searchParams;
    query.set('response_type', 'code');
    query.set('client_id', client.clientId);
    query.set('redirect_uri', loopback.redirectUri);
    query.set('state', state);
    query.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    query.set('code_challenge_method', 'S256');
    query.set('resource', resource);
    if (scope !== undefined) query.set('scope', scope);
    // OpenID Connect issues a refresh token for offline_access only with consent asked (OIDC Core §11).
    if (splitScopes(scope).includes('offline_access')) query.set('prompt', 'consent');
    const params = await Promise.race([
      loopback.callback,
      showAuthorizationUrl(authorize.href, options, login.defaults),
    ]).catch((error: unknown) => {
      throw reused ? mayBeForgotten(error, login.defaults.wording ?? LIBRARY_WORDING) : error;
    });
    const oauthClient = { client_id: client.clientId };
    let validated: URLSearchParams;
    try {
      validated = oauth.validateAuthResponse(as, oauthClient, params, state);
    } catch (cause) {
      loopback.finish(false);
      throw authorizationResponseError(as, params, state, cause);
    }
    loopback.finish(true);
    const endpoint = await login.endpoint(client);
    try {
      return {
        response: await authorizationCode(endpoint, validated, loopback.redirectUri, verifier),
        client,
      };
    } catch (error) {
      if (((error as McpError).cause as { error?: unknown } | undefined)?.error === 'invalid_client')
        await login.forgetClient(client.clientId);
      throw error;
    }
  } finally {
    void loopback.close();
  }
}

/**
 * A login that timed out on a stored dynamic registration: the likeliest cause is a server that forgot it
 * (its page shows `invalid_client` and never comes back), so the message says how to drop it.
 */
function mayBeForgotten(error: unknown, wording: Wording): unknown {
  if (!(error instanceof McpError) || error.kind !== 'timeout') return error;
  return new McpError(
    'timeout',
    `${error.message}: the authorization server may have forgotten the client autos-mcp registered there ` +
      `(a server that keeps registrations in memory loses them when it restarts, and shows invalid_client); ` +
      `drop it with ${wording.forgetRegistration} and log in again`,
    { cause: error },
  );
}

/** The callback server: on the configured port, else the port a stored registration names, else any. */
async function listen(
  config: CheckedConfig,
  stored: StoredClient | undefined,
  options: LoginOptions,
  state: string,
) {
  const registeredPort =
    stored?.redirectUri === undefined ? 0 : Number(new URL(stored.redirectUri).port || 0);
  const port = config.redirectPort !== 0 ? config.redirectPort : registeredPort;
  const listen = (p: number) =>
    startLoopback({
      host: config.redirectHost,
      port: p,
      state,
      timeoutMs: options.timeoutMs ?? LOGIN_TIMEOUT_MS,
      signal: options.signal,
    });
  try {
    return await listen(port);
  } catch (error) {
    if (port === 0 || port === config.redirectPort) throw error;
    return listen(0); // the registered port is taken: a new registration follows
  }
}

/**
 * Shows the authorization URL: opens it (the caller's `openUrl`, else the system browser) or prompts.
 * Not awaited to its end, since an opener may only finish once the callback is answered; resolves
 * never, rejects if the opener fails, for the caller to race against the callback.
 */
async function showAuthorizationUrl(
  url: string,
  options: LoginOptions,
  defaults: OAuthOptions,
): Promise<never> {
  const prompt = options.prompt ?? defaults.prompt ?? defaultPrompt;
  const opener = options.openUrl ?? defaults.openUrl;
  if (options.browser === false) prompt({ kind: 'browser', url });
  else if (opener !== undefined) {
    try {
      await opener(url);
    } catch (cause) {
      throw new McpError('auth_required', 'the login could not start: openUrl failed', { cause });
    }
  } else if (!(await openInBrowser(url))) prompt({ kind: 'browser', url });
  return new Promise<never>(() => {});
}

/**
 * Why `validateAuthResponse` refused the callback, told from the callback's own parameters in the order
 * it checks them (RFC 9207 `iss` first, then `state`), never from the wording of its error.
 */
function authorizationResponseError(
  as: oauth.AuthorizationServer,
  params: URLSearchParams,
  state: string,
  cause: unknown,
): McpError {
  if (cause instanceof oauth.AuthorizationResponseError) {
    const code = /^[\w.-]{1,64}$/.test(cause.error) ? cause.error : 'error';
    return new McpError(
      'auth_required',
      `the authorization server ${as.issuer} refused the login (${code})`,
      {
        delivery: 'delivered',
      },
    );
  }
  const iss = params.get('iss');
  const issWrong =
    iss === null ? as.authorization_response_iss_parameter_supported === true : iss !== as.issuer;
  const why = issWrong
    ? 'its issuer (iss) is missing or is not the authorization server this login used (RFC 9207)'
    : params.get('state') !== state
      ? 'its state does not match this login'
      : 'it is malformed';
  return new McpError('auth_required', `the login callback was refused: ${why}`, { delivery: 'delivered' });
}
