/**
 * A real MCP server behind OAuth, for the OAuth tests: the official SDK (`@modelcontextprotocol/server`,
 * `createMcpHandler`: 2026-07-28 traffic, and 2025-11-25 served statelessly) at
 * `http://127.0.0.1:<port>/mcp`, acting as an OAuth 2.0 resource server.
 *
 * Every request to /mcp needs `Authorization: Bearer <JWT>` signed by the authorization server (its
 * `jwks_uri`, read with jose's `createRemoteJWKSet`), with `iss` = that issuer, `aud` = this resource and a
 * future `exp`. Otherwise: 401 with `WWW-Authenticate: Bearer resource_metadata="<metadata URL>"`, plus
 * `error="invalid_token"` when a token was sent. A `tools/call` of a tool listed in `toolScopes` whose scope
 * the token lacks gets 403 with `error="insufficient_scope", scope="<needed>"` (MCP's step-up challenge).
 *
 * The Protected Resource Metadata (RFC 9728) is served at `/.well-known/oauth-protected-resource/mcp`
 * (the path-inserted form for `/mcp`): `{ resource, authorization_servers: [issuer], scopes_supported,
 * bearer_methods_supported: ['header'] }`.
 *
 * One tool, `whoami`: answers `sub=<sub> scope=<scope>` (from the verified token) as text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import { listenLocal, readBody } from './http-server.js';

export interface ProtectedMcpOptions {
  /** The issuer whose tokens are accepted (its discovery document names the jwks_uri). */
  authorizationServer: string;
  /** The resource identifier: the expected `aud` and the metadata's `resource`; default the /mcp URL. */
  resource?: string;
  /** `scopes_supported` in the metadata; default `mcp:read mcp:write`. */
  scopes?: readonly string[];
  /** A scope each named tool needs, e.g. `{ whoami: 'mcp:write' }`; a token without it gets 403. */
  toolScopes?: Readonly<Record<string, string>>;
  /** Whether the 401/403 challenges name the metadata URL (default true; false to test well-known probing). */
  advertiseMetadata?: boolean;
}

/** One request that reached /mcp, as the server judged it. */
export interface SeenRequest {
  /** The bearer token presented, if any. */
  token?: string;
  /** The JSON-RPC method of a POST body, if it had one. */
  method?: string;
  status: number;
}

export interface ProtectedMcpServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** The resource identifier tokens must be issued for. */
  resource: string;
  /** `http://127.0.0.1:<port>/.well-known/oauth-protected-resource/mcp`. */
  metadataUrl: URL;
  /** Every bearer token presented (in order, repeats included). */
  tokensSeen: string[];
  /** Every request to /mcp, with its answer's status. */
  requests: SeenRequest[];
  /**
   * Moves this server's clock (the one it judges a token's `exp` by) `ms` ahead of real time, so a test
   * sees a token expire without sleeping until it does.
   */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

function challenge(fields: Record<string, string | undefined>): string {
  const parts = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${k}="${v}"`);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}

function toWebRequest(req: IncomingMessage, url: URL, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(url, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Reads `method` and, for tools/call, the tool `name` from a JSON-RPC body (undefined when not JSON). */
function rpcOf(body: string | undefined): { method?: string; tool?: string } {
  if (body === undefined || body === '') return {};
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { name?: unknown } };
    const out: { method?: string; tool?: string } = {};
    if (typeof message.method === 'string') out.method = message.method;
    if (typeof message.params?.name === 'string') out.tool = message.params.name;
    return out;
  } catch {
    return {};
  }
}

function createWhoamiServer(): McpServer {
  const server = new McpServer(
    { name: 'autos-mcp-protected', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'whoami',
    { description: "Answers the access token's subject and scope." },
    async (ctx) => {
      const auth = ctx.http?.authInfo;
      const sub = String(auth?.extra?.['sub'] ?? '');
      return { content: [{ type: 'text', text: `sub=${sub} scope=${auth?.scopes.join(' ') ?? ''}` }] };
    },
  );
  return server;
}

/** Starts the protected MCP server; close it in `after`/`finally`. */
export async function startProtectedMcpServer(options: ProtectedMcpOptions): Promise<ProtectedMcpServer> {
  const issuer = options.authorizationServer;
  const scopes = options.scopes ?? ['mcp:read', 'mcp:write'];
  const toolScopes = options.toolScopes ?? {};
  const handler = createMcpHandler(createWhoamiServer);
  const tokensSeen: string[] = [];
  const requests: SeenRequest[] = [];
  let clockAheadMs = 0;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keys = async () => {
    if (jwks === undefined) {
      const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
        jwks_uri?: string;
      };
      if (typeof discovery.jwks_uri !== 'string') throw new Error(`no jwks_uri in ${issuer}'s discovery`);
      jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    }
    return jwks;
  };

  let base = '';
  let resource = '';
  let metadataUrl = '';
  const resourceMetadata = () => (options.advertiseMetadata === false ? undefined : metadataUrl);

  const http = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp' && req.method === 'GET') {
        return json(res, 200, {
          resource,
          authorization_servers: [issuer],
          scopes_supported: scopes,
          bearer_methods_supported: ['header'],
        });
      }
      if (url.pathname !== '/mcp') return void res.writeHead(404).end();

      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const rpc = rpcOf(body);
      const seen: SeenRequest = { status: 0, ...(rpc.method === undefined ? {} : { method: rpc.method }) };
      requests.push(seen);
      const refuse = (status: number, fields: Record<string, string | undefined>, error: string) => {
        seen.status = status;
        const www = challenge({ ...fields, resource_metadata: resourceMetadata() });
        json(res, status, { error }, { 'www-authenticate': www });
      };

      const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      const token = match?.[1];
      if (token === undefined) return refuse(401, {}, 'invalid_request');
      seen.token = token;
      tokensSeen.push(token);

      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await keys(), {
          issuer,
          audience: resource,
          typ: 'at+jwt',
          currentDate: new Date(Date.now() + clockAheadMs),
        }));
      } catch (error) {
        const description = error instanceof Error ? error.message.replace(/"/g, "'") : 'invalid token';
        return refuse(401, { error: 'invalid_token', error_description: description }, 'invalid_token');
      }
      const granted = typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : [];
      const needed = rpc.method === 'tools/call' && rpc.tool !== undefined ? toolScopes[rpc.tool] : undefined;
      if (needed !== undefined && !granted.includes(needed)) {
        return refuse(403, { error: 'insufficient_scope', scope: needed }, 'insufficient_scope');
      }

      const clientId = typeof payload['client_id'] === 'string' ? payload['client_id'] : '';
      const response = await handler.fetch(toWebRequest(req, url, body), {
        authInfo: {
          token,
          clientId,
          scopes: granted,
          resource: new URL(resource),
          ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
          extra: { sub: payload.sub },
        },
      });
      seen.status = response.status;
      await writeResponse(res, response);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    }
  });
  const url = await listenLocal(http);
  base = url.origin;
  resource = options.resource ?? url.href;
  metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;

  return {
    url,
    resource,
    metadataUrl: new URL(metadataUrl),
    tokensSeen,
    requests,
    advanceClock: (ms) => {
      clockAheadMs += ms;
    },
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      });
    },
  };
}
