/**
 * Finding who protects an MCP server: its Protected Resource Metadata (RFC 9728), then the metadata of
 * the authorization server it names (RFC 8414, then OpenID Connect Discovery), each URL tried in the order
 * the spec gives (S25/basic/authorization, S26/basic/authorization/authorization-server-discovery).
 * Strings that are compared later (`resource`, `issuer`) are kept exactly as the documents spell them.
 */
import type { AuthorizationServer } from 'oauth4webapi';
import type { AuthChallenge } from '../errors/index.js';
import { McpError } from '../errors/index.js';
import { allowedUrl, type OAuthHttp, shown } from './http.js';

export interface ProtectedResource {
  /** The PRM `resource`, exactly as given: sent as the `resource` parameter (RFC 8707). */
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[] | undefined;
  /** The resource says it takes DPoP-bound tokens (`dpop_bound_access_tokens_required`, `dpop_signing_alg_values_supported`). */
  readonly dpop: boolean;
  /** Where the document was found (origin + path). */
  readonly metadataUrl: string;
}

/** Who protects an MCP server: its resource metadata and the authorization server it names first. */
export interface ProtectingServer {
  readonly resource: ProtectedResource;
  readonly as: AuthorizationServer;
  /** The MCP server takes DPoP-bound tokens (its challenge or its metadata said so). */
  readonly takesDpop: boolean;
}

/**
 * Discovers the resource metadata of `endpoint`, then the metadata of its first authorization server
 * through `authorizationServer` (the caller's, which may cache it).
 */
export async function discoverServer(
  http: OAuthHttp,
  endpoint: URL,
  challenge: AuthChallenge | undefined,
  authorizationServer: (issuer: string) => Promise<AuthorizationServer>,
): Promise<ProtectingServer> {
  const resource = await discoverResource(http, endpoint, challenge);
  const issuer = resource.authorizationServers[0] as string;
  const takesDpop = resource.dpop || challenge?.scheme.toLowerCase() === 'dpop';
  return { resource, as: await authorizationServer(issuer), takesDpop };
}

/** The PRM candidates, in the spec's order: the challenge's URL, else path-inserted, then root. */
export function resourceMetadataCandidates(endpoint: URL, challenge: AuthChallenge | undefined): URL[] {
  if (challenge?.resourceMetadata !== undefined) {
    const fromHeader = parseUrl(challenge.resourceMetadata);
    if (fromHeader !== undefined) return [fromHeader];
  }
  const candidates: URL[] = [];
  const path = endpoint.pathname.replace(/\/+$/, '');
  if (path !== '') candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, endpoint.origin));
  candidates.push(new URL('/.well-known/oauth-protected-resource', endpoint.origin));
  return candidates;
}

export async function discoverResource(
  http: OAuthHttp,
  endpoint: URL,
  challenge: AuthChallenge | undefined,
): Promise<ProtectedResource> {
  for (const candidate of resourceMetadataCandidates(endpoint, challenge)) {
    const { json } = await http.getJson(candidate);
    if (json === undefined) continue;
    return checkResource(json, endpoint, candidate);
  }
  throw new McpError(
    'auth_required',
    `${shown(endpoint)} asks for authorization, but publishes no protected resource metadata (RFC 9728)`,
    { delivery: 'delivered' },
  );
}

function checkResource(json: Record<string, unknown>, endpoint: URL, found: URL): ProtectedResource {
  const { resource, authorization_servers: servers, scopes_supported: scopes } = json;
  if (typeof resource !== 'string' || !Array.isArray(servers) || servers.length === 0)
    throw new McpError(
      'protocol',
      `the protected resource metadata at ${shown(found)} lacks resource or authorization_servers`,
      {
        delivery: 'delivered',
      },
    );
  if (!resourceMatches(resource, endpoint))
    throw new McpError(
      'auth_required',
      `the protected resource metadata at ${shown(found)} names another resource (${shown(resource)}), not ${shown(endpoint)}: refusing to authorize for it (RFC 9728 §3.3)`,
      { delivery: 'delivered' },
    );
  const authorizationServers = servers.filter(
    (s): s is string => typeof s === 'string' && parseUrl(s) !== undefined,
  );
  if (authorizationServers.length === 0)
    throw new McpError(
      'protocol',
      `the protected resource metadata at ${shown(found)} names no usable authorization server`,
      {
        delivery: 'delivered',
      },
    );
  return {
    resource,
    authorizationServers,
    dpop:
      json['dpop_bound_access_tokens_required'] === true ||
      Array.isArray(json['dpop_signing_alg_values_supported']),
    scopesSupported: Array.isArray(scopes)
      ? scopes.filter((s): s is string => typeof s === 'string')
      : undefined,
    metadataUrl: shown(found),
  };
}

/**
 * The PRM `resource` must identify this server: the same origin, and a path that is the endpoint's path
 * or a prefix of it at a segment boundary (RFC 9728 §3.3 asks that it match the URL the client used).
 */
export function resourceMatches(resource: string, endpoint: URL): boolean {
  const parsed = parseUrl(resource);
  if (parsed === undefined || parsed.hash !== '' || parsed.origin !== endpoint.origin) return false;
  const prefix = parsed.pathname.replace(/\/+$/, '');
  const path = endpoint.pathname.replace(/\/+$/, '');
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/** The authorization server metadata URLs of `issuer`, in the spec's order. */
export function metadataCandidates(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '')
    return [
      new URL('/.well-known/oauth-authorization-server', url.origin),
      new URL('/.well-known/openid-configuration', url.origin),
    ];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`/.well-known/openid-configuration${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}

/**
 * Fetches the metadata of `issuer` and checks that its `issuer` is identical to the string the URL was
 * built from (RFC 8414 §3.3): a document that says otherwise is not used at all, nor is the next candidate.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
): Promise<AuthorizationServer> {
  const url = parseUrl(issuer);
  if (url === undefined || !allowedUrl(url) || url.search !== '' || url.hash !== '')
    throw new McpError(
      'config',
      `the authorization server ${JSON.stringify(shown(issuer))} is not an https URL without query`,
    );
  for (const candidate of metadataCandidates(issuer)) {
    const { json } = await http.getJson(candidate);
    if (json === undefined) continue;
    if (!describes(json, issuer))
      throw new McpError(
        'auth_required',
        `the authorization server metadata at ${shown(candidate)} names another issuer than ${shown(issuer)}: not using it (RFC 8414 §3.3)`,
        { delivery: 'delivered' },
      );
    return json;
  }
  throw new McpError(
    'auth_required',
    `no authorization server metadata found for ${shown(issuer)} (RFC 8414, OpenID Connect Discovery)`,
    {
      delivery: 'delivered',
    },
  );
}

/**
 * The metadata of `issuer`: a JSON object whose `issuer` is that very string (RFC 8414 §3.3). The other
 * fields are read, and checked, where oauth4webapi uses them.
 */
function describes(json: Record<string, unknown>, issuer: string): json is AuthorizationServer {
  return json['issuer'] === issuer;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
