/**
 * `OAuth`: the authorizer an HTTP connection asks before every request (`connect(config, { auth })`).
 * It presents the stored token (refreshing one known to be expired first), reacts to 401/403 (a newer
 * token from another process, one refresh, or a non-interactive grant), and otherwise lets the error
 * through with its challenge, so the caller can `login()` and retry. Nothing here opens a browser by itself.
 * The types callers see are `options.ts` and `status.ts`; the browser login is `login/browser.ts`.
 */
import * as oauth from 'oauth4webapi';
import type { AuthChallenge } from '../errors/index.js';
import { McpError } from '../errors/index.js';
import { keyringStore, memoryStore } from '../store/index.js';
import type { CredentialStore } from '../store/types.js';
import type {
  AuthorizationRequest,
  AuthorizationValue,
  Authorizer,
  AuthRefusal,
} from '../transport/authorizer.js';
import { clientAuthentication } from './client-auth.js';
import { type CheckedConfig, checkConfig, type OAuthConfig } from './config.js';
import { discoverAuthorizationServer, discoverResource, type ProtectedResource } from './discovery.js';
import { bearerOnly, dpopKeyPair, dpopWanted, proofFor, rememberNonce } from './dpop.js';
import { exchangeForIdJag } from './enterprise.js';
import { OAuthHttp, shown } from './http.js';
import { type ClientContext, clientOf, forgetClient, forgetRegistrations } from './known-client.js';
import { browserLogin } from './login/browser.js';
import { deviceFlow } from './login/device.js';
import { LIBRARY_WORDING, type LoginOptions, type OAuthOptions } from './options.js';
import {
  asStored,
  expired,
  keys,
  readBinding,
  readToken,
  type StoredClient,
  type StoredToken,
} from './records.js';
import { chooseClient } from './registration.js';
import { saveToken } from './save-token.js';
import { chooseScopes, covered } from './scopes.js';
import { type LoginResult, loginResult, type OAuthStatus, statusOf } from './status.js';
import { clientCredentials, jwtBearer, refresh, type TokenEndpoint, toStored } from './tokens.js';

interface Server {
  readonly resource: ProtectedResource;
  readonly as: oauth.AuthorizationServer;
  /** The MCP server takes DPoP-bound tokens (its challenge or its metadata said so). */
  readonly takesDpop: boolean;
}

export class OAuth implements Authorizer {
  readonly #config: CheckedConfig;
  readonly #metadataUrl: string | undefined;
  readonly #store: CredentialStore;
  readonly #http: OAuthHttp;
  readonly #options: OAuthOptions;
  #token: StoredToken | undefined;
  /** The last client this authorizer used: a registration's secret and management token are masked too. */
  #client: StoredClient | undefined;
  #loaded = false;
  #challenge: AuthChallenge | undefined;
  #refreshing: Promise<StoredToken> | undefined;
  #acquiring: Promise<StoredToken> | undefined;
  readonly #servers = new Map<string, Promise<oauth.AuthorizationServer>>();
  readonly #dpop = new Map<string, Promise<oauth.DPoPHandle>>();

  /** @internal Use `oauth()` or `createOAuth()`. */
  constructor(config: OAuthConfig, options: OAuthOptions, defaultMetadataUrl: string | undefined) {
    this.#config = checkConfig(config);
    this.#options = options;
    const cimd = this.#config.clientMetadataUrl;
    this.#metadataUrl =
      cimd === false
        ? undefined
        : (cimd ?? (this.#config.clientId === undefined ? defaultMetadataUrl : undefined));
    this.#store =
      options.store ??
      (options.storeName !== undefined ? keyringStore(`oauth.${options.storeName}`) : memoryStore());
    const { endpoint: server, idp } = this.#config;
    this.#http = new OAuthHttp({ ...options, server, configured: idp && [idp.tokenEndpoint] });
  }

  /** The MCP endpoint this authorizer is for (origin + path). */
  get url(): string {
    return shown(this.#config.endpoint);
  }

  get #automatic(): boolean {
    return this.#config.grant !== 'authorization_code';
  }

  // --- Authorizer -------------------------------------------------------------------------------

  async authorization(request: AuthorizationRequest): Promise<AuthorizationValue> {
    let token = this.#loaded ? this.#token : await this.#reload();
    if (token === undefined) return undefined;
    if (expired(token)) {
      if (token.refreshToken !== undefined) token = await this.#refresh(token);
      else if (this.#automatic) token = await this.#acquireOnce(this.#challenge);
    }
    return this.#present(token, request);
  }

  /** What the connection masks in server text besides the tokens it sends (see `Authorizer.secrets`). */
  secrets(): (string | undefined)[] {
    const { clientSecret, privateKey, assertion, idp } = this.#config;
    const token = this.#token;
    return [
      clientSecret,
      privateKey,
      assertion,
      idp?.clientSecret,
      idp?.idToken,
      token?.accessToken,
      token?.refreshToken,
      this.#client?.clientSecret,
      this.#client?.registrationAccessToken,
    ];
  }

  async refused(refusal: AuthRefusal): Promise<boolean> {
    const challenge = refusal.challenge;
    if (challenge !== undefined) this.#challenge = challenge;
    const current = await this.#reload();
    if (refusal.status === 401) {
      if (
        challenge?.error === 'use_dpop_nonce' &&
        refusal.dpopNonce !== undefined &&
        current?.tokenType === 'dpop'
      ) {
        rememberNonce(
          await this.#dpopHandle(current.issuer, current.clientId),
          refusal.url,
          refusal.dpopNonce,
        );
        return true;
      }
      // A DPoP-bound token (dpop: true) at a server that takes Bearer tokens only: no refresh or login
      // can help while the config insists, so say so once rather than ask for login after login.
      if (
        current?.tokenType === 'dpop' &&
        sent(refusal.authorization, current) &&
        bearerOnly(refusal.challenges)
      )
        throw new McpError(
          'auth_required',
          `${this.url} takes Bearer tokens only and refused the DPoP-bound token (${(this.#options.wording ?? LIBRARY_WORDING).dpop}): log in again without it`,
          { delivery: 'delivered', status: 401, ...(challenge !== undefined ? { challenge } : {}) },
        );
      // Another process (or call) stored a token other than the one refused: use it.
      if (current !== undefined && !sent(refusal.authorization, current)) return true;
      if (current?.refreshToken !== undefined) {
        await this.#refresh(current);
        return true;
      }
      if (this.#automatic) {
        await this.#acquireOnce(challenge);
        return true;
      }
      // Another server entry may already hold a token for the same issuer and resource: share it.
      if (current === undefined) return this.#adopt(challenge, refusal.authorization);
      return false;
    }
    if (
      challenge?.error === 'insufficient_scope' &&
      this.#automatic &&
      !covered(challenge.scope, current?.requestedScope)
    ) {
      await this.#acquireOnce(challenge);
      return true;
    }
    return false;
  }

  /**
   * Looks up, without logging in, a stored token for the issuer and resource this server names, and
   * binds this endpoint to it. A failed discovery is not an error here: `login()` reports it.
   */
  async #adopt(challenge: AuthChallenge | undefined, refused: string | undefined): Promise<boolean> {
    let server: Server;
    try {
      server = await this.#discover(challenge);
    } catch {
      return false;
    }
    const { issuer } = server.as;
    const { resource } = server.resource;
    const token = readToken(await this.#store.get(keys.token(issuer, resource)));
    if (token === undefined || sent(refused, token) || (expired(token) && token.refreshToken === undefined))
      return false;
    await this.#store.set(keys.binding(this.#config.endpoint.href), asStored({ issuer, resource }));
    this.#token = token;
    this.#loaded = true;
    return true;
  }

  // --- login, logout, status --------------------------------------------------------------------

  /**
   * Logs in: discovers the server's authorization server afresh, then runs the configured grant (for
   * `authorization_code`, a browser login on a loopback callback, or the device grant with `device: true`).
   * Only ever called by the user: nothing starts a login by itself.
   */
  async login(options: LoginOptions = {}): Promise<LoginResult> {
    const token = this.#automatic
      ? await this.#acquire(options.challenge ?? this.#challenge)
      : await this.#interactive(options);
    return loginResult(token);
  }

  /** Forgets the tokens of this server (client registrations stay). Resolves true when there were some. */
  async logout(): Promise<boolean> {
    const binding = readBinding(await this.#store.get(keys.binding(this.#config.endpoint.href)));
    this.#token = undefined;
    this.#loaded = false;
    if (binding === undefined) return false;
    const key = keys.token(binding.issuer, binding.resource);
    const had = (await this.#store.get(key)) !== undefined;
    await this.#store.withLock(keys.refreshLock(binding.issuer, binding.resource), () =>
      this.#store.delete(key),
    );
    await this.#store.delete(keys.binding(this.#config.endpoint.href));
    return had;
  }

  /**
   * Forgets the client autos-mcp registered (dynamic registration) at this server's authorization server,
   * so that the next login registers anew: the way out when the server forgot the registration (a
   * restart of one that keeps them in memory). Tokens stay (see `logout()`). Resolves true when there was one.
   */
  async forgetRegistration(): Promise<boolean> {
    const issuers = new Set<string>();
    const binding = readBinding(await this.#store.get(keys.binding(this.#config.endpoint.href)));
    if (binding !== undefined) issuers.add(binding.issuer);
    try {
      issuers.add((await this.#discover(this.#challenge)).as.issuer);
    } catch (error) {
      if (issuers.size === 0) throw error; // no stored login to tell the issuer either
    }
    return forgetRegistrations(this.#store, [...issuers]);
  }

  async status(): Promise<OAuthStatus> {
    return statusOf(this.url, await this.#reload(), this.#store.description);
  }

  // --- tokens -----------------------------------------------------------------------------------

  /** Reads the stored token for this endpoint afresh (another process may have written a newer one). */
  async #reload(): Promise<StoredToken | undefined> {
    const binding = readBinding(await this.#store.get(keys.binding(this.#config.endpoint.href)));
    const token = binding && readToken(await this.#store.get(keys.token(binding.issuer, binding.resource)));
    this.#token = token;
    this.#loaded = true;
    return token;
  }

  async #present(token: StoredToken, request: AuthorizationRequest): Promise<AuthorizationValue> {
    if (token.tokenType !== 'dpop') return `Bearer ${token.accessToken}`;
    const handle = await this.#dpopHandle(token.issuer, token.clientId);
    const proof = await proofFor(handle, request.url, request.method, token.accessToken);
    return { authorization: `DPoP ${token.accessToken}`, headers: { dpop: proof } };
  }

  /**
   * One refresh at a time per credential: single-flight in this process, a store lock across
   * processes. A waiter that finds a newer token in the store (another winner) uses it and sends nothing.
   */
  #refresh(sentToken: StoredToken): Promise<StoredToken> {
    this.#refreshing ??= this.#refreshLocked(sentToken).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refreshLocked(sentToken: StoredToken): Promise<StoredToken> {
    const { issuer, resource } = sentToken;
    const key = keys.token(issuer, resource);
    const token = await this.#store.withLock(keys.refreshLock(issuer, resource), async () => {
      const current = readToken(await this.#store.get(key));
      if (current !== undefined && current.serial !== sentToken.serial && !expired(current)) return current;
      const base = current ?? sentToken;
      if (base.refreshToken === undefined)
        throw new McpError(
          'auth_required',
          `the token for ${this.url} expired and cannot be refreshed: log in again`,
        );
      const as = await this.#authorizationServer(issuer);
      const client = await clientOf(this.#clients, as, base.clientId);
      this.#client = client;
      const endpoint = await this.#endpoint(as, resource, client, base.tokenType === 'dpop');
      let response: oauth.TokenEndpointResponse;
      try {
        response = await refresh(endpoint, base.refreshToken);
      } catch (error) {
        const code = (error as McpError).cause as { error?: unknown } | undefined;
        if (code?.error === 'invalid_grant') {
          // Drop the dead credential, unless another process has meanwhile stored a newer one.
          const now = readToken(await this.#store.get(key));
          if (now?.serial === base.serial) await this.#store.delete(key);
        }
        if (code?.error === 'invalid_client') await forgetClient(this.#store, as.issuer, base.clientId);
        throw error;
      }
      const next = toStored(response, {
        issuer,
        resource,
        clientId: client.clientId,
        requestedScope: base.requestedScope,
        previous: base,
      });
      await this.#store.set(key, asStored(next));
      return next;
    });
    this.#token = token;
    return token;
  }

  #acquireOnce(challenge: AuthChallenge | undefined): Promise<StoredToken> {
    this.#acquiring ??= this.#acquire(challenge).finally(() => {
      this.#acquiring = undefined;
    });
    return this.#acquiring;
  }

  /** The non-interactive grants: client credentials, jwt-bearer, enterprise (ID-JAG then jwt-bearer). */
  async #acquire(challenge: AuthChallenge | undefined): Promise<StoredToken> {
    const server = await this.#discover(challenge);
    const { previous, scope } = await this.#scopes(server, challenge, false);
    const client = await this.#chooseClient(server.as, undefined, false);
    const endpoint = await this.#endpoint(server.as, server.resource.resource, client, this.#dpopFor(server));
    let response: oauth.TokenEndpointResponse;
    if (this.#config.grant === 'client_credentials') response = await clientCredentials(endpoint, scope);
    else if (this.#config.grant === 'jwt_bearer')
      response = await jwtBearer(endpoint, this.#config.assertion ?? '', scope);
    else {
      const idp = this.#config.idp;
      if (idp === undefined) throw new McpError('config', 'oauth config: the enterprise grant needs idp');
      const jag = await exchangeForIdJag(this.#http, idp, server.as.issuer, server.resource.resource, scope);
      response = await jwtBearer(endpoint, jag, scope);
    }
    return this.#save(server, client, response, scope, previous);
  }

  async #interactive(options: LoginOptions): Promise<StoredToken> {
    const challenge = options.challenge ?? this.#challenge;
    const server = await this.#discover(challenge);
    const { previous, scope } = await this.#scopes(server, challenge, true);
    const { response, client } =
      options.device === true
        ? await this.#deviceFlow(server, scope, options)
        : await this.#browserFlow(server, scope, options);
    return this.#save(server, client, response, scope, previous);
  }

  async #scopes(server: Server, challenge: AuthChallenge | undefined, user: boolean) {
    const previous = readToken(await this.#store.get(keys.token(server.as.issuer, server.resource.resource)));
    const stepUp = challenge?.error === 'insufficient_scope';
    if (stepUp && covered(challenge.scope, previous?.requestedScope))
      throw new McpError(
        'forbidden',
        `${this.url} still refuses with insufficient_scope for scopes that were already requested: logging in again will not help`,
        { challenge },
      );
    const scope = chooseScopes({
      configured: this.#config.scopes,
      challenge: challenge?.scope,
      resourceSupported: server.resource.scopesSupported,
      previous: stepUp ? previous?.requestedScope : undefined,
      serverSupported: server.as.scopes_supported,
      wantsRefresh: user,
    });
    return { previous, scope };
  }

  async #save(
    server: Server,
    client: StoredClient,
    response: oauth.TokenEndpointResponse,
    scope: string | undefined,
    previous: StoredToken | undefined,
  ): Promise<StoredToken> {
    const place = {
      endpoint: this.#config.endpoint.href,
      issuer: server.as.issuer,
      resource: server.resource.resource,
    };
    const token = await saveToken(this.#store, place, client, response, scope, previous);
    this.#token = token;
    this.#loaded = true;
    return token;
  }

  // --- discovery, clients, endpoints ------------------------------------------------------------

  async #discover(challenge: AuthChallenge | undefined): Promise<Server> {
    const resource = await discoverResource(this.#http, this.#config.endpoint, challenge);
    const issuer = resource.authorizationServers[0] as string;
    // A fresh look at the metadata on every login: a server may have moved to another authorization server.
    this.#servers.delete(issuer);
    const takesDpop = resource.dpop || challenge?.scheme.toLowerCase() === 'dpop';
    return { resource, as: await this.#authorizationServer(issuer), takesDpop };
  }

  #authorizationServer(issuer: string): Promise<oauth.AuthorizationServer> {
    let found = this.#servers.get(issuer);
    if (found === undefined) {
      found = discoverAuthorizationServer(this.#http, issuer);
      found.catch(() => this.#servers.delete(issuer));
      this.#servers.set(issuer, found);
    }
    return found;
  }

  /** The client to be at `as` for a new token (see `chooseClient`). */
  #chooseClient(
    as: oauth.AuthorizationServer,
    redirectUri: string | undefined,
    device: boolean,
  ): Promise<StoredClient> {
    const chosen = chooseClient({
      config: this.#config,
      metadataUrl: this.#metadataUrl,
      as,
      store: this.#store,
      http: this.#http,
      redirectUri,
      device,
      wording: this.#options.wording,
    });
    return chosen.then((client) => {
      this.#client = client;
      return client;
    });
  }

  /** What finding a stored token's client needs (see `clientOf`). */
  get #clients(): ClientContext {
    return {
      config: this.#config,
      metadataUrl: this.#metadataUrl,
      store: this.#store,
      http: this.#http,
      url: this.url,
    };
  }

  async #endpoint(
    as: oauth.AuthorizationServer,
    resource: string,
    client: StoredClient,
    useDpop: boolean,
  ): Promise<TokenEndpoint> {
    const key =
      this.#config.privateKey === undefined
        ? undefined
        : { pem: this.#config.privateKey, algorithm: this.#config.signingAlgorithm ?? 'ES256' };
    return {
      as,
      client: { client_id: client.clientId, token_endpoint_auth_method: client.authMethod },
      auth: await clientAuthentication(client, key),
      http: this.#http,
      dpop: useDpop ? await this.#dpopHandle(as.issuer, client.clientId) : undefined,
      resource,
    };
  }

  #dpopFor(server: Server): boolean {
    return dpopWanted(server.as, this.#config.dpop, server.takesDpop);
  }

  #dpopHandle(issuer: string, clientId: string): Promise<oauth.DPoPHandle> {
    let handle = this.#dpop.get(issuer);
    if (handle === undefined) {
      handle = dpopKeyPair(this.#store, issuer).then((pair) =>
        oauth.DPoP({ client_id: clientId } as oauth.Client, pair),
      );
      handle.catch(() => this.#dpop.delete(issuer));
      this.#dpop.set(issuer, handle);
    }
    return handle;
  }

  // --- the two user logins ----------------------------------------------------------------------

  #browserFlow(server: Server, scope: string | undefined, options: LoginOptions) {
    const { as } = server;
    return browserLogin({
      as,
      resource: server.resource.resource,
      scope,
      config: this.#config,
      store: this.#store,
      options,
      defaults: this.#options,
      client: (redirectUri) => this.#chooseClient(as, redirectUri, false),
      endpoint: (client) => this.#endpoint(as, server.resource.resource, client, this.#dpopFor(server)),
      forgetClient: (clientId) => forgetClient(this.#store, as.issuer, clientId),
    });
  }

  #deviceFlow(server: Server, scope: string | undefined, options: LoginOptions) {
    const { as } = server;
    return deviceFlow({
      as,
      scope,
      options,
      defaults: this.#options,
      client: () => this.#chooseClient(as, undefined, true),
      endpoint: (client) => this.#endpoint(as, server.resource.resource, client, this.#dpopFor(server)),
      forgetClient: (clientId) => forgetClient(this.#store, as.issuer, clientId),
    });
  }
}

/** True when `authorization` (what was sent) carries this token. */
function sent(authorization: string | undefined, token: StoredToken): boolean {
  return (
    authorization !== undefined && authorization.slice(authorization.indexOf(' ') + 1) === token.accessToken
  );
}
