/**
 * Which client to be at an authorization server, in the spec's order (S25/basic/authorization,
 * S26/basic/authorization/client-registration): a pre-registered client; a Client ID Metadata Document
 * where the server supports them; a client this store registered before at that same issuer; dynamic
 * registration (RFC 7591), only when the config allows it. Otherwise a clear error: never a guess.
 */
import * as oauth from 'oauth4webapi';
import { McpError } from '../errors/index.js';
import type { CredentialStore } from '../store/types.js';
import { pickAuthMethod } from './client-auth.js';
import type { CheckedConfig } from './config.js';
import type { OAuthHttp } from './http.js';
import { LIBRARY_WORDING, type Wording } from './options.js';
import { asStored, keys, readClient, type StoredClient } from './records.js';
import { managementOf, registrationForgotten } from './registration-check.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface ClientChoice {
  readonly config: CheckedConfig;
  /** The CIMD URL to offer (from the config, or the product default of `createOAuth`). */
  readonly metadataUrl: string | undefined;
  readonly as: oauth.AuthorizationServer;
  readonly store: CredentialStore;
  readonly http: OAuthHttp;
  /** The redirect URI a registration must carry (the loopback callback); undefined for other grants. */
  readonly redirectUri: string | undefined;
  readonly device: boolean;
  /** How messages name the fixes (default: the library's option names). */
  readonly wording?: Wording | undefined;
}

export async function chooseClient(choice: ClientChoice): Promise<StoredClient> {
  const { config, as } = choice;
  const hasKey = config.privateKey !== undefined;
  if (config.clientId !== undefined) {
    return {
      clientId: config.clientId,
      ...(config.clientSecret !== undefined ? { clientSecret: config.clientSecret } : {}),
      authMethod: pickAuthMethod(as.token_endpoint_auth_methods_supported, {
        secret: config.clientSecret !== undefined,
        key: hasKey,
      }),
      via: 'pre-registered',
    };
  }
  if (choice.metadataUrl !== undefined && as['client_id_metadata_document_supported'] === true) {
    return { clientId: choice.metadataUrl, authMethod: hasKey ? 'private_key_jwt' : 'none', via: 'cimd' };
  }
  const stored = readClient(await choice.store.get(keys.client(as.issuer)));
  if (
    stored !== undefined &&
    (choice.redirectUri === undefined || stored.redirectUri === choice.redirectUri)
  ) {
    if (!(await registrationForgotten(choice.http, stored))) return stored;
    // The server restarted and forgot it (RFC 7592 says so): drop it, and register anew where allowed.
    await choice.store.delete(keys.client(as.issuer));
  }
  if (config.dcr === true && typeof as.registration_endpoint === 'string') return register(choice);
  const words = choice.wording ?? LIBRARY_WORDING;
  const ways = [
    `give ${words.clientId}`,
    ...(typeof as.registration_endpoint === 'string' ? [`allow dynamic registration with ${words.dcr}`] : []),
    ...(as['client_id_metadata_document_supported'] === true && words.clientMetadataUrl !== undefined
      ? [`give ${words.clientMetadataUrl}`]
      : []),
  ];
  throw new McpError(
    'config',
    `the authorization server ${as.issuer} needs a client for autos-mcp: ${ways.join(', or ')}`,
  );
}

async function register(choice: ClientChoice): Promise<StoredClient> {
  const { as, config } = choice;
  const supported = as.token_endpoint_auth_methods_supported;
  const requested =
    supported === undefined || supported.includes('none')
      ? 'none'
      : pickAuthMethod(supported, { secret: true, key: false });
  const grantTypes = ['authorization_code', 'refresh_token', ...(choice.device ? [DEVICE_GRANT] : [])];
  const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
    client_name: config.clientName ?? 'autos-mcp',
    redirect_uris: [choice.redirectUri ?? `http://${config.redirectHost}/callback`],
    grant_types: grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    application_type: 'native',
  };
  // Parsed here rather than by oauth4webapi, which also demands client_secret_expires_at: servers
  // the official SDK registers with leave it out.
  const response = await oauth.dynamicClientRegistrationRequest(as, metadata, {
    [oauth.customFetch]: choice.http.customFetch,
    [oauth.allowInsecureRequests]: true,
  });
  let registered: Record<string, unknown> = {};
  try {
    registered = (await response.json()) as Record<string, unknown>;
  } catch {}
  if (response.status !== 201 && response.status !== 200)
    throw new McpError(
      'auth_required',
      `dynamic client registration at ${as.issuer} failed with HTTP ${response.status}${oauthErrorCode(registered)}`,
      {
        delivery: 'delivered',
        status: response.status,
      },
    );
  if (typeof registered['client_id'] !== 'string' || registered['client_id'] === '')
    throw new McpError('protocol', `dynamic client registration at ${as.issuer} returned no client_id`, {
      delivery: 'delivered',
    });
  const clientId = registered['client_id'];
  const secret = typeof registered['client_secret'] === 'string' ? registered['client_secret'] : undefined;
  const method =
    typeof registered['token_endpoint_auth_method'] === 'string'
      ? registered['token_endpoint_auth_method']
      : secret !== undefined
        ? pickAuthMethod(supported, { secret: true, key: false })
        : 'none';
  const client: StoredClient = {
    clientId,
    ...(secret !== undefined ? { clientSecret: secret } : {}),
    authMethod: method,
    via: 'dcr',
    ...(choice.redirectUri !== undefined ? { redirectUri: choice.redirectUri } : {}),
    ...managementOf(registered, as.registration_endpoint as string),
  };
  await choice.store.set(keys.client(as.issuer), asStored(client));
  return client;
}

/** ` (invalid_client)`-style suffix from an OAuth error response, without its description. */
export function oauthErrorCode(cause: unknown): string {
  const code = (cause as { error?: unknown })?.error;
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? ` (${code})` : '';
}
