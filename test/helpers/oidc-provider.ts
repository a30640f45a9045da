/**
 * A real OAuth 2.1 authorization server for the OAuth tests: `oidc-provider` (panva) on 127.0.0.1, port 0,
 * issuer `http://127.0.0.1:<port>` (plain HTTP, which the library allows only on loopback).
 *
 * What it does, as configured here:
 * - authorization code with PKCE, required for every client (S256 is the only method oidc-provider has);
 *   `iss` in every authorization response (discovery: `authorization_response_iss_parameter_supported`);
 * - resource indicators (RFC 8707): each resource given in `resource` (or added later with `addResource`,
 *   since the MCP server's URL is only known once it listens) gets JWT access tokens with `aud` = that
 *   resource and scopes `resourceScopes` (default `mcp:read mcp:write`). A token request without `resource`
 *   and with `openid` in scope gets an opaque token, which the protected MCP server refuses: a client that
 *   forgets `resource` at the token endpoint is caught, not papered over;
 * - refresh tokens, issued when the grant includes `offline_access` and the client may use `refresh_token`,
 *   rotated on every use (a reused refresh token is refused and revokes the grant). oidc-provider drops
 *   `offline_access` from an authorization request without `prompt=consent` (OpenID Connect Core §11);
 *   `issueRefreshToken: 'always'` issues them regardless;
 * - the device authorization grant (RFC 8628); a code is approved either through its pages in a browser
 *   (test/helpers/browser.ts) or without one, with `approveDevice(userCode)`;
 * - client ID metadata documents (oidc-provider's experimental `clientIdMetadataDocument`, draft-02), when
 *   `clientIdMetadataDocument` is set. oidc-provider only takes an `https://` client_id as a document URL
 *   and fetches it through a dispatcher that destroys connections to special-use addresses, 127.0.0.0/8
 *   included. Its `fetch` option receives every outgoing request, so here an `https://127.0.0.1:<port>/…`
 *   (or `localhost`, `[::1]`) client_id is fetched as `http://…` on the same port, without that dispatcher:
 *   the test serves the document over plain HTTP and names it with the https URL;
 * - dynamic client registration (RFC 7591) when `registration` is set, with a registration access token and
 *   a `registration_client_uri` that can be read (GET); `registrationManagement: true` turns on RFC 7592
 *   (update and delete too), `false` leaves both fields out of the answer, as a server without 7592 does;
 * - `restart()`: a new provider on the same port and issuer, with a new in-memory adapter, as a server
 *   that keeps registrations in memory comes back from a restart: every registration, grant and session
 *   is forgotten (pre-registered clients stay, they are configuration);
 * - the development login and consent pages (`devInteractions`): any login, any password;
 * - the metadata at both `/.well-known/openid-configuration` and RFC 8414's
 *   `/.well-known/oauth-authorization-server` (`oauthMetadataPath: false` leaves only the first).
 *
 * Pre-registered clients (`clients`): a public native one (see `NATIVE_CLIENT`, redirect
 * `http://127.0.0.1/callback`: oidc-provider matches a native client's loopback redirect on any port,
 * RFC 8252 §7.3) and a confidential one (`CONFIDENTIAL_CLIENT`) are the defaults.
 *
 * Nothing is logged: every default that prints a notice is replaced. Two warnings cannot be configured away
 * (Node 20 is "unsupported", devInteractions are on); they are dropped while the module loads and the
 * provider is built. `events` counts what the server did, for tests to assert on.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

/** The default scopes of every resource. */
export const RESOURCE_SCOPES = ['mcp:read', 'mcp:write'] as const;

/** A public native client (no secret, PKCE), the kind the library registers as by default. */
export const NATIVE_CLIENT = {
  client_id: 'native-client',
  application_type: 'native',
  token_endpoint_auth_method: 'none',
  redirect_uris: ['http://127.0.0.1/callback'],
  grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
  response_types: ['code'],
} as const;

/** A confidential web client (`client_secret_basic` or `client_secret_post`). */
export const CONFIDENTIAL_CLIENT = {
  client_id: 'confidential-client',
  client_secret: 'confidential-client-secret-0123456789',
  application_type: 'web',
  token_endpoint_auth_method: 'client_secret_basic',
  redirect_uris: ['http://127.0.0.1/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
} as const;

export interface AuthorizationServerOptions {
  /** Resource indicators (the MCP endpoint URLs) that get JWT access tokens. More with `addResource`. */
  resource?: string | readonly string[];
  /** The scopes allowed for each resource; default `mcp:read mcp:write`. */
  resourceScopes?: readonly string[];
  /** Client metadata to pre-register; default `[NATIVE_CLIENT, CONFIDENTIAL_CLIENT]`. */
  clients?: readonly object[];
  /** Access token lifetime in seconds; default 3600. */
  accessTokenTtl?: number;
  /** Refresh token lifetime in seconds; default 1 day. */
  refreshTokenTtl?: number;
  /**
   * When refresh tokens are issued (to clients allowed the `refresh_token` grant): `offline_access` (the
   * default, oidc-provider's own rule: the grant includes `offline_access`, which oidc-provider keeps in an
   * authorization request only together with `prompt=consent`), or `always`.
   */
  issueRefreshToken?: 'offline_access' | 'always';
  /** Device code lifetime in seconds; default 600. */
  deviceCodeTtl?: number;
  /** Turn on dynamic client registration (`/reg`, no initial access token). */
  registration?: boolean;
  /**
   * RFC 7592 client registration management: `true` turns it on; `false` drops `registration_client_uri`
   * and `registration_access_token` from registration answers (a server without it); default: oidc-provider's
   * own (the URI can be read with the token, not changed).
   */
  registrationManagement?: boolean;
  /** Turn on client ID metadata documents (see the file comment for the https-named loopback document). */
  clientIdMetadataDocument?: boolean;
  /**
   * Also serve the metadata at RFC 8414's `/.well-known/oauth-authorization-server` (default true); false
   * leaves only OpenID Connect discovery, for clients' fallback path.
   */
  oauthMetadataPath?: boolean;
}

/** What the server did, counted as it happens. */
export interface AuthorizationServerEvents {
  /** The query of each GET to the authorization endpoint. */
  authorizationRequests: URLSearchParams[];
  /** Every POST to the token endpoint, whatever its outcome. */
  tokenRequests: number;
  /** Token endpoint requests, with the parameters that matter and whether a token came back. */
  tokenRequestLog: { grantType: string; clientId?: string; resource?: string | string[]; ok: boolean }[];
  /** Successful `refresh_token` grants. */
  refreshes: number;
  /** Failed `refresh_token` grants (e.g. a rotated-out token presented again). */
  refreshFailures: number;
  /** Successful `authorization_code` grants. */
  codeExchanges: number;
  /** Device authorization requests answered with a user code. */
  deviceCodes: number;
  /** Successful device code grants. */
  deviceTokens: number;
  /** Dynamic client registrations. */
  registrations: number;
  /** The status of each read (GET) of a registration at its `registration_client_uri`. */
  registrationReads: number[];
  /** Client ID metadata document URLs fetched (the URL as the client named it). */
  metadataDocumentFetches: string[];
}

export interface AuthorizationServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  issuer: string;
  /** The issuer as a URL. */
  url: URL;
  /** `<issuer>/.well-known/openid-configuration`. */
  discoveryUrl: URL;
  events: AuthorizationServerEvents;
  /** Lets one more resource indicator get JWT access tokens, e.g. an MCP server started after this one. */
  addResource(resource: string, scopes?: readonly string[]): void;
  /**
   * Approves a pending device code without a browser, as account `accountId` (default `device-user`),
   * granting what the device authorization request asked for. Resolves once the device can poll a token.
   */
  approveDevice(userCode: string, accountId?: string): Promise<void>;
  /** A new provider on the same issuer, with nothing of the old one's memory (see the file comment). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

// --- the slice of oidc-provider's (untyped) API used here ---------------------------------------------

interface OidcContext {
  path: string;
  method: string;
  status: number;
  body: unknown;
  type: string;
  querystring: string;
  oidc?: { params?: Record<string, unknown>; client?: { clientId: string } };
}
interface GrantModel {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface DeviceCodeModel {
  clientId: string;
  params: Record<string, unknown>;
  accountId?: string;
  authTime?: number;
  grantId?: string;
  scope?: string;
  resource?: string | string[];
  save(): Promise<string>;
}
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  on(event: string, listener: (ctx: OidcContext, ...rest: unknown[]) => void): void;
  use(middleware: (ctx: OidcContext, next: () => Promise<void>) => Promise<void>): void;
  Grant: new (init: { accountId: string; clientId: string }) => GrantModel;
  DeviceCode: { findByUserCode(userCode: string): Promise<DeviceCodeModel | undefined> };
}
interface OidcModule {
  default: new (issuer: string, configuration: object) => OidcProvider;
  errors: { InvalidTarget: new () => Error };
}
interface AdapterModule {
  createMemoryAdapter(clockTolerance?: number): unknown;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** The warnings oidc-provider prints whatever the configuration (runtime check, devInteractions). */
const UNAVOIDABLE =
  /^oidc-provider WARNING: (Unsupported runtime|a quick start development-only feature devInteractions)/;

/** Runs `fn` with those two warnings dropped from console.warn (everything else still goes through). */
async function quietly<T>(fn: () => T | Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && UNAVOIDABLE.test(args[0])) return;
    warn(...args);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

// Loaded on first use, so that its import-time warning can be dropped. The package ships no types: the
// modules are narrowed to the interfaces above.
let loaded: Promise<{ oidc: OidcModule; adapters: AdapterModule }> | undefined;
function load(): Promise<{ oidc: OidcModule; adapters: AdapterModule }> {
  loaded ??= quietly(async () => ({
    // @ts-expect-error oidc-provider has no type declarations
    oidc: (await import('oidc-provider')) as OidcModule,
    // @ts-expect-error oidc-provider has no type declarations (its in-memory adapter, without the warning)
    adapters: (await import('oidc-provider/lib/adapters/memory_adapter.js')) as AdapterModule,
  }));
  return loaded;
}

/** An uppercase letters-and-digits form of a user code, as oidc-provider stores it. */
function normalizeUserCode(input: string): string {
  return input.toUpperCase().replace(/\W/g, '');
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Starts the authorization server; close it in `after`/`finally`. */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const { oidc, adapters } = await load();
  const resourceScopes = new Map<string, string>();
  const defaultScopes = (options.resourceScopes ?? RESOURCE_SCOPES).join(' ');
  const initial = options.resource;
  for (const r of typeof initial === 'string' ? [initial] : (initial ?? []))
    resourceScopes.set(r, defaultScopes);

  const events: AuthorizationServerEvents = {
    authorizationRequests: [],
    tokenRequests: 0,
    tokenRequestLog: [],
    refreshes: 0,
    refreshFailures: 0,
    codeExchanges: 0,
    deviceCodes: 0,
    deviceTokens: 0,
    registrations: 0,
    registrationReads: [],
    metadataDocumentFetches: [],
  };

  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const http = createServer((req, res) => {
    if (handler === undefined) return void res.writeHead(503).end();
    handler(req, res);
  });
  const { port } = await listenLocal(http);
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' };
  const accessTokenTtl = options.accessTokenTtl ?? 3600;

  const configuration = {
    jwks: { keys: [jwk] },
    clients: options.clients ?? [NATIVE_CLIENT, CONFIDENTIAL_CLIENT],
    scopes: ['openid', 'offline_access'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    cookies: { keys: ['autos-mcp-test-cookie-key'] },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    clientBasedCORS: () => true,
    rotateRefreshToken: true,
    issueRefreshToken: async (
      _ctx: unknown,
      client: { grantTypeAllowed(type: string): boolean },
      source: { scopes: Set<string> },
    ) =>
      client.grantTypeAllowed('refresh_token') &&
      (options.issueRefreshToken === 'always' || source.scopes.has('offline_access')),
    ttl: {
      AccessToken: accessTokenTtl,
      AuthorizationCode: 60,
      ClientCredentials: accessTokenTtl,
      DeviceCode: options.deviceCodeTtl ?? 600,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: options.refreshTokenTtl ?? 24 * 3600,
      Session: 14 * 24 * 3600,
      BackchannelAuthenticationRequest: 600,
      PreAuthorizedCode: 600,
    },
    renderError: async (ctx: OidcContext, out: Record<string, string>) => {
      ctx.type = 'html';
      const rows = Object.entries(out).map(
        ([k, v]) => `<pre><strong>${k}</strong>: ${htmlEscape(String(v))}</pre>`,
      );
      ctx.body = page('oops! something went wrong', rows.join(''));
    },
    // Every outgoing request (client ID metadata documents here) goes through this; see the file comment.
    fetch: (url: string | URL, init: RequestInit & { dispatcher?: unknown }) => {
      const target = new URL(url);
      const { dispatcher: _ssrfGuard, ...rest } = init;
      if (target.protocol === 'https:' && LOOPBACK.has(target.hostname)) {
        events.metadataDocumentFetches.push(target.href);
        target.protocol = 'http:';
        return fetch(target, rest);
      }
      return fetch(target, init);
    },
    features: {
      devInteractions: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
        // The library's token requests must carry `resource` themselves: a granted one is not reused.
        useGrantedResource: async () => false,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          const scope = resourceScopes.get(resource);
          if (scope === undefined) throw new oidc.errors.InvalidTarget();
          return {
            scope,
            audience: resource,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: async (ctx: OidcContext, form: string, _out: unknown, err?: Error) => {
          const note =
            err === undefined ? 'Enter the code displayed on your device' : 'The code is incorrect';
          ctx.body = page(
            'Sign-in',
            `<p>${note}</p>${form}<button type="submit" form="op.deviceInputForm">Continue</button>`,
          );
        },
        userCodeConfirmSource: async (
          ctx: OidcContext,
          form: string,
          _client: unknown,
          _info: unknown,
          userCode: string,
        ) => {
          ctx.body = page(
            'Device Login Confirmation',
            `<p>Code <code>${htmlEscape(userCode)}</code></p>${form}` +
              '<button type="submit" form="op.deviceConfirmForm">Continue</button>',
          );
        },
        successSource: async (ctx: OidcContext) => {
          ctx.body = page('Sign-in Success', '<p>Your sign-in was successful, you can close this page.</p>');
        },
      },
      registration: { enabled: options.registration === true },
      registrationManagement: { enabled: options.registrationManagement === true },
      clientIdMetadataDocument: options.clientIdMetadataDocument
        ? { enabled: true, ack: 'draft-02', allowFetch: async () => true, allowClient: async () => true }
        : { enabled: false },
    },
  };

  /** A provider with a memory of its own (a new one on `restart()`). */
  const build = async (): Promise<OidcProvider> => {
    const built = await quietly(
      () => new oidc.default(issuer, { ...configuration, adapter: adapters.createMemoryAdapter() }),
    );
    observe(built);
    return built;
  };
  const observe = (provider: OidcProvider): void => {
    provider.use(async (ctx, next) => {
      if (ctx.path === '/.well-known/oauth-authorization-server' && options.oauthMetadataPath !== false) {
        ctx.path = '/.well-known/openid-configuration';
      }
      if (ctx.path === '/auth') {
        events.authorizationRequests.push(new URLSearchParams(ctx.querystring));
      }
      if (ctx.path === '/token' && ctx.method === 'POST') events.tokenRequests += 1;
      await next();
      if (ctx.path.startsWith('/reg/') && ctx.method === 'GET') events.registrationReads.push(ctx.status);
      if (ctx.path === '/reg' && options.registrationManagement === false && typeof ctx.body === 'object') {
        const {
          registration_client_uri: _uri,
          registration_access_token: _token,
          ...rest
        } = ctx.body as Record<string, unknown>;
        ctx.body = rest;
      }
    });
    const logToken = (ctx: OidcContext, ok: boolean) => {
      const params = ctx.oidc?.params ?? {};
      const grantType = String(params['grant_type'] ?? '');
      const resource = params['resource'] as string | string[] | undefined;
      const clientId = ctx.oidc?.client?.clientId;
      events.tokenRequestLog.push({
        grantType,
        ok,
        ...(clientId === undefined ? {} : { clientId }),
        ...(resource === undefined ? {} : { resource }),
      });
      if (grantType === 'refresh_token') {
        if (ok) events.refreshes += 1;
        else events.refreshFailures += 1;
      }
      if (ok && grantType === 'authorization_code') events.codeExchanges += 1;
      if (ok && grantType === 'urn:ietf:params:oauth:grant-type:device_code') events.deviceTokens += 1;
    };
    provider.on('grant.success', (ctx) => logToken(ctx, true));
    provider.on('grant.error', (ctx) => logToken(ctx, false));
    provider.on('device_authorization.success', () => {
      events.deviceCodes += 1;
    });
    provider.on('registration_create.success', () => {
      events.registrations += 1;
    });
    // oidc-provider emits `server_error` for its own failures; a test should see them.
    provider.on('server_error', (_ctx, error) => {
      process.stderr.write(`oidc-provider server_error: ${String(error)}\n`);
    });
  };
  let provider = await build();
  handler = provider.callback();

  return {
    issuer,
    url: new URL(issuer),
    discoveryUrl: new URL(`${issuer}/.well-known/openid-configuration`),
    events,
    addResource(resource, scopes) {
      resourceScopes.set(resource, scopes === undefined ? defaultScopes : scopes.join(' '));
    },
    async approveDevice(userCode, accountId = 'device-user') {
      const code = await provider.DeviceCode.findByUserCode(normalizeUserCode(userCode));
      if (code === undefined) throw new Error(`no pending device code for user code ${userCode}`);
      const requested = String(code.params['scope'] ?? '')
        .split(' ')
        .filter(Boolean);
      const rawResource = code.params['resource'];
      const resources = (Array.isArray(rawResource) ? rawResource : [rawResource]).filter(
        (r): r is string => typeof r === 'string',
      );
      const grant = new provider.Grant({ accountId, clientId: code.clientId });
      const oidcScopes = requested.filter((s) => s === 'openid' || s === 'offline_access');
      if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
      for (const r of resources) {
        const allowed = new Set((resourceScopes.get(r) ?? '').split(' '));
        const granted = requested.filter((s) => allowed.has(s));
        if (granted.length > 0) grant.addResourceScope(r, granted.join(' '));
      }
      code.grantId = await grant.save();
      code.accountId = accountId;
      code.authTime = Math.floor(Date.now() / 1000);
      code.scope = requested.join(' ');
      const [only] = resources;
      if (resources.length > 1) code.resource = resources;
      else if (only !== undefined) code.resource = only;
      await code.save();
    },
    async restart() {
      provider = await build();
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}
