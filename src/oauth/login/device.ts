/**
 * The Device Authorization Grant (RFC 8628), for a machine without a browser: ask for a device code,
 * show the user the verification URL and code (through the prompt, never a log), then poll the token
 * endpoint at the server's `interval`, slower on `slow_down`, until `expires_in` runs out.
 */
import * as oauth from 'oauth4webapi';
import { McpError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import { defaultPrompt, LOGIN_TIMEOUT_MS, type LoginOptions, type OAuthOptions } from '../options.js';
import type { StoredClient } from '../records.js';
import { deviceCode, type TokenEndpoint, tokenError } from '../tokens.js';

export interface DevicePrompt {
  readonly kind: 'device';
  readonly verificationUri: string;
  readonly verificationUriComplete: string | undefined;
  readonly userCode: string;
  readonly expiresInSeconds: number;
}

/** Longest poll interval honoured, and the shortest (a server asking for 0 s is not obeyed). */
const MAX_INTERVAL_S = 60;
const MIN_INTERVAL_S = 1;

/** One device login: the authorization server, what to ask for, and the authorizer's parts it uses. */
export interface DeviceLogin {
  readonly as: oauth.AuthorizationServer;
  readonly scope: string | undefined;
  readonly options: LoginOptions;
  /** The authorizer's own options: its prompt, where `options` gives none. */
  readonly defaults: OAuthOptions;
  /** The poll interval and the deadline are waited out and read on this clock. */
  readonly clock: Clock;
  /** The client to log in as (pre-registered, CIMD, or registered now). */
  readonly client: () => Promise<StoredClient>;
  /** The token endpoint, as this client. */
  readonly endpoint: (client: StoredClient) => Promise<TokenEndpoint>;
  /** Forgets a registration the authorization server refused (invalid_client). */
  readonly forgetClient: (clientId: string) => Promise<void>;
}

/** Runs the device login to its token response; a registration refused as invalid_client is dropped. */
export async function deviceFlow(login: DeviceLogin) {
  const { as, options } = login;
  if (typeof as.device_authorization_endpoint !== 'string')
    throw new McpError(
      'auth_required',
      `the authorization server ${as.issuer} offers no device login (RFC 8628)`,
    );
  const client = await login.client();
  const endpoint = await login.endpoint(client);
  const prompt = options.prompt ?? login.defaults.prompt ?? defaultPrompt;
  const timeoutMs = options.timeoutMs ?? LOGIN_TIMEOUT_MS;
  try {
    const wait = { clock: login.clock, signal: options.signal, timeoutMs };
    return { response: await deviceLogin(endpoint, login.scope, prompt, wait), client };
  } catch (error) {
    // A server that forgot a stored registration refuses it at once here: the next login registers anew.
    if (((error as McpError).cause as { error?: unknown } | undefined)?.error === 'invalid_client')
      await login.forgetClient(client.clientId);
    throw error;
  }
}

async function deviceLogin(
  endpoint: TokenEndpoint,
  scope: string | undefined,
  show: (prompt: DevicePrompt) => void,
  wait: { clock: Clock; signal: AbortSignal | undefined; timeoutMs: number },
): Promise<oauth.TokenEndpointResponse> {
  const { clock, signal, timeoutMs } = wait;
  const { as, client, auth, http } = endpoint;
  let started: oauth.DeviceAuthorizationResponse;
  try {
    const response = await oauth.deviceAuthorizationRequest(
      as,
      client,
      auth,
      { resource: endpoint.resource, ...(scope ? { scope } : {}) },
      { [oauth.customFetch]: http.customFetch, [oauth.allowInsecureRequests]: true },
    );
    started = await oauth.processDeviceAuthorizationResponse(as, client, response);
  } catch (cause) {
    throw tokenError(endpoint, 'the device authorization request', cause);
  }
  show({
    kind: 'device',
    verificationUri: started.verification_uri,
    verificationUriComplete: started.verification_uri_complete,
    userCode: started.user_code,
    expiresInSeconds: started.expires_in,
  });
  // The device code's own lifetime, or the caller's deadline when that comes first. No wait runs past
  // it: a server asking for a long interval shortens the last poll, never the caller's deadline.
  const codeMs = started.expires_in * 1000;
  const deadline = clock.now() + Math.min(codeMs, timeoutMs);
  const late = (): McpError =>
    new McpError(
      'timeout',
      timeoutMs < codeMs
        ? `the login was not approved within ${seconds(timeoutMs)}: log in again`
        : 'the device code expired before the login was approved: log in again',
    );
  let interval = clamp(started.interval ?? 5);
  for (;;) {
    const left = deadline - clock.now();
    if (left <= 0) throw late();
    await clock.sleep(Math.min(interval * 1000, left), signal).catch(() => {
      throw new McpError('cancelled', 'the login was cancelled');
    });
    if (clock.now() >= deadline) throw late();
    try {
      return await oauth.processDeviceCodeResponse(
        as,
        client,
        await deviceCode(endpoint, started.device_code),
      );
    } catch (cause) {
      const code = (cause as { error?: unknown }).error;
      if (code === 'authorization_pending') continue;
      if (code === 'slow_down') {
        interval = clamp(interval + 5);
        continue;
      }
      if (code === 'expired_token')
        throw new McpError('timeout', 'the device code expired before the login was approved: log in again');
      if (code === 'access_denied')
        throw new McpError('auth_required', 'the login was denied at the authorization server', {
          delivery: 'delivered',
        });
      throw tokenError(endpoint, 'the device code grant', cause);
    }
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function clamp(seconds: number): number {
  return Math.min(MAX_INTERVAL_S, Math.max(MIN_INTERVAL_S, Number.isFinite(seconds) ? seconds : 5));
}
