/**
 * `OAuth`: the authorizer an HTTP connection asks before every request (`connect(config, { auth })`).
 * It presents the stored token (refreshing one known to be expired first), reacts to 401/403 (a newer
 * token from another process, one refresh, or a non-interactive grant), and otherwise lets the error
 * through with its challenge, so the caller can `login()` and retry. Nothing here opens a browser by itself.
 * The types callers see are `options.ts` and `status.ts`; the user logins are `login/user-login.ts`, the
 * refresh `refresh.ts`, the non-interactive grants `grants.ts`, the endpoint's binding `binding.ts`.
 */
import type * as oauth from 'oauth4webapi';
import type { AuthChallenge } from '../errors/index.js';
import { type Clock, systemClock } from '../internal/clock.js';
import { keyringStore, memoryStore } from '../store/index.js';
import type { CredentialStore } from '../store/types.js';
import type {
  AuthorizationRequest,
  AuthorizationValue,
  Authorizer,
  AuthRefusal,
} from '../transport/authorizer.js';
import { adoptToken, bindingOf, boundToken, removeLogin, sent } from './binding.js';
import { type CheckedConfig, checkConfig, type OAuthConfig } from './config.js';
import { discoverAuthorizationServer, discoverServer, type ProtectingServer } from './discovery.js';
import { bearerOnly, bearerOnlyRefusal, dpopHandle, dpopWanted, proofFor, rememberNonce } from './dpop.js';
import { grantResponse } from './grants.js';
import { OAuthHttp, shown } from './http.js';
import { type ClientContext, forgetRegistrations } from './known-client.js';
import { userLogin } from './login/user-login.js';
import { LIBRARY_WORDING, type LoginOptions, type OAuthOptions } from './options.js';
import { cached } from './promise-cache.js';
import { expired, type StoredClient, type StoredToken } from './records.js';
import { refreshLocked } from './refresh.js';
import { chooseClient } from './registration.js';
import { scopesToRequest } from './request-scopes.js';
import { saveToken } from './save-token.js';
import { covered } from './scopes.js';
import { type LoginResult, loginResult, type OAuthStatus, statusOf } from './status.js';
import { tokenEndpoint } from './token-endpoint.js';
import type { TokenEndpoint } from './tokens.js';

export class OAuth implements Authorizer {
  readonly #config: CheckedConfig;
  readonly #metadataUrl: string | undefined;
  readonly #store: CredentialStore;
  readonly #http: OAuthHttp;
  readonly #options: OAuthOptions;
  readonly #clock: Clock;
  #token: StoredToken | undefined;
  /** The last client this authorizer used: a registration's secret and management token are masked too. */
  #client: StoredClient | undefined;
  #loaded = false;
  #challenge: AuthChallenge | undefined;
  #refreshing: Promise<StoredToken> | undefined;
  #acquiring: Promise<StoredToken> | undefined;
  readonly #servers = new Map<string, Promise<oauth.AuthorizationServer>>();
  readonly #dpop = new Map<string, Promise<oauth.DPoPHandle>>();

  /** @internal Use `createOAuth()`. */
  constructor(config: OAuthConfig, options: OAuthOptions, defaultMetadataUrl: string | undefined) {
    this.#config = checkConfig(config);
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
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
    if (expired(token, this.#clock.now())) {
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
        rememberNonce(await this.#dpopHandle(current.issuer), refusal.url, refusal.dpopNonce);
        return true;
      }
      // A DPoP-bound token (dpop: true) at a server that takes Bearer tokens only: no refresh or login
      // can help while the config insists, so say so once rather than ask for login after login.
      if (
        current?.tokenType === 'dpop' &&
        sent(refusal.authorization, current) &&
        bearerOnly(refusal.challenges)
      )
        throw bearerOnlyRefusal(this.url, (this.#options.wording ?? LIBRARY_WORDING).dpop, challenge);
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
    let server: ProtectingServer;
    try {
      server = await this.#discover(challenge);
    } catch {
      return false;
    }
    const place = { issuer: server.as.issuer, resource: server.resource.resource };
    const token = await adoptToken(this.#store, this.#config.endpoint.href, place, refused, this.#clock);
    if (token === undefined) return false;
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
    const binding = await bindingOf(this.#store, this.#config.endpoint.href);
    this.#token = undefined;
    this.#loaded = false;
    return removeLogin(this.#store, this.#config.endpoint.href, binding);
  }

  /**
   * Forgets the client autos-mcp registered (dynamic registration) at this server's authorization server,
   * so that the next login registers anew: the way out when the server forgot the registration (a
   * restart of one that keeps them in memory). Tokens stay (see `logout()`). Resolves true when there was one.
   */
  async forgetRegistration(): Promise<boolean> {
    const issuers = new Set<string>();
    const binding = await bindingOf(this.#store, this.#config.endpoint.href);
    if (binding !== undefined) issuers.add(binding.issuer);
    try {
      issuers.add((await this.#discover(this.#challenge)).as.issuer);
    } catch (error) {
      if (issuers.size === 0) throw error; // no stored login to tell the issuer either
    }
    return forgetRegistrations(this.#store, [...issuers]);
  }

  async status(): Promise<OAuthStatus> {
    return statusOf(this.url, await this.#reload(), this.#store.description, this.#clock.now());
  }

  // --- tokens -----------------------------------------------------------------------------------

  /** Reads the stored token for this endpoint afresh (another process may have written a newer one). */
  async #reload(): Promise<StoredToken | undefined> {
    const token = await boundToken(this.#store, this.#config.endpoint.href);
    this.#token = token;
    this.#loaded = true;
    return token;
  }

  async #present(token: StoredToken, request: AuthorizationRequest): Promise<AuthorizationValue> {
    if (token.tokenType !== 'dpop') return `Bearer ${token.accessToken}`;
    const handle = await this.#dpopHandle(token.issuer);
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
    const token = await refreshLocked(
      {
        store: this.#store,
        url: this.url,
        clients: this.#clients,
        clock: this.#clock,
        authorizationServer: (issuer) => this.#authorizationServer(issuer),
        endpoint: (as, resource, client, useDpop) => this.#endpoint(as, resource, client, useDpop),
        usedClient: (client) => {
          this.#client = client;
        },
      },
      sentToken,
    );
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
    const response = await grantResponse(this.#config, endpoint, scope);
    return this.#save(server, client, response, scope, previous);
  }

  async #interactive(options: LoginOptions): Promise<StoredToken> {
    const challenge = options.challenge ?? this.#challenge;
    const server = await this.#discover(challenge);
    const { previous, scope } = await this.#scopes(server, challenge, true);
    const { as } = server;
    const { response, client } = await userLogin({
      as,
      resource: server.resource.resource,
      scope,
      config: this.#config,
      store: this.#store,
      options,
      defaults: this.#options,
      clock: this.#clock,
      client: (redirectUri, device) => this.#chooseClient(as, redirectUri, device),
      endpoint: (client) => this.#endpoint(as, server.resource.resource, client, this.#dpopFor(server)),
    });
    return this.#save(server, client, response, scope, previous);
  }

  #scopes(server: ProtectingServer, challenge: AuthChallenge | undefined, user: boolean) {
    const { as, resource } = server;
    const configured = this.#config.scopes;
    return scopesToRequest({ store: this.#store, url: this.url, configured, resource, as, challenge, user });
  }

  async #save(
    server: ProtectingServer,
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
    const token = await saveToken(this.#store, place, client, response, scope, previous, this.#clock.now());
    this.#token = token;
    this.#loaded = true;
    return token;
  }

  // --- discovery, clients, endpoints ------------------------------------------------------------

  #discover(challenge: AuthChallenge | undefined): Promise<ProtectingServer> {
    return discoverServer(this.#http, this.#config.endpoint, challenge, (issuer) => {
      // A fresh look at the metadata on every login: a server may have moved to another authorization server.
      this.#servers.delete(issuer);
      return this.#authorizationServer(issuer);
    });
  }

  #authorizationServer(issuer: string): Promise<oauth.AuthorizationServer> {
    return cached(this.#servers, issuer, () => discoverAuthorizationServer(this.#http, issuer));
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

  #endpoint(
    as: oauth.AuthorizationServer,
    resource: string,
    client: StoredClient,
    useDpop: boolean,
  ): Promise<TokenEndpoint> {
    const dpop = useDpop ? () => this.#dpopHandle(as.issuer) : undefined;
    return tokenEndpoint(this.#config, this.#http, as, resource, client, dpop);
  }

  #dpopFor(server: ProtectingServer): boolean {
    return dpopWanted(server.as, this.#config.dpop, server.takesDpop);
  }

  #dpopHandle(issuer: string): Promise<oauth.DPoPHandle> {
    return cached(this.#dpop, issuer, () => dpopHandle(this.#store, issuer));
  }
}
