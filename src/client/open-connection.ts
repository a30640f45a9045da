/**
 * Opens the connection a normalized config names. The one place that maps a config to a transport: the
 * client asks for a connection and reads its traits. A stdio config's `envFrom` is resolved here, just
 * before the spawn, by the resolver the caller hands in (so neither this nor the transport reads
 * settings). Each transport is loaded only when a server of its kind is first used (the HTTP one with
 * undici when asked for; the stdio one with node:child_process), so importing the library stays cheap and a
 * process that only speaks HTTP never loads the process-spawning code, nor a stdio-only one the HTTP code.
 */
import type { Dispatcher } from 'undici';
import { type EnvFromResolver, type NormalizedConfig, secretValues } from '../config/index.js';
import { McpError } from '../errors/index.js';
import { registerSecrets, type SecretRegistration } from '../internal/known-secrets.js';
import type { Authorizer } from '../transport/authorizer.js';
import type { Connection } from '../transport/connection.js';

/** Code and shared resources a transport may take besides the plain-data config. */
export interface TransportExtras {
  /** HTTP only: supplies `Authorization` per request and hears about 401/403. */
  auth?: Authorizer | undefined;
  /** HTTP only: an undici dispatcher to use (pool, proxy, CA settings, a mock agent); the caller owns it. */
  dispatcher?: Dispatcher | undefined;
  /** stdio only: resolves the config's `envFrom` (called only when it has one). */
  resolveEnvFrom: EnvFromResolver;
  /** The connection's id in diagnostics events (the client's). */
  connectionId?: string | undefined;
}

/**
 * Creates (does not start) the connection for `config`. Every value the caller handed in for it (`env`
 * values with `envFrom` resolved, header values, `authToken`, a proxy password) is registered as a known
 * secret until the connection is closed: `redact` masks it by value in whatever server text it sees.
 */
export async function openConnection(config: NormalizedConfig, extras: TransportExtras): Promise<Connection> {
  const secrets = registerSecrets(secretValues(config.transport === 'stdio' ? config.stdio : config.http));
  try {
    return await open(config, extras, secrets);
  } catch (error) {
    secrets.release();
    throw error;
  }
}

async function open(
  config: NormalizedConfig,
  extras: TransportExtras,
  secrets: SecretRegistration,
): Promise<Connection> {
  if (config.transport === 'stdio') {
    if (extras.auth !== undefined || extras.dispatcher !== undefined) {
      throw new McpError('config', `${config.target}: auth and dispatcher apply to HTTP servers only`);
    }
    const { envFrom, ...stdio } = config.stdio;
    const ids = { connectionId: extras.connectionId, secrets };
    const { StdioConnection } = await import('../transport/stdio/index.js');
    if (envFrom === undefined) return new StdioConnection(stdio, ids);
    // Resolved now, just before the spawn, and never kept in the config.
    const resolved = await extras.resolveEnvFrom(envFrom);
    secrets.add(Object.values(resolved));
    return new StdioConnection({ ...stdio, env: { ...stdio.env, ...resolved } }, ids);
  }
  if (
    extras.dispatcher !== undefined &&
    (config.http.proxy !== undefined || config.http.ca !== undefined || config.http.useEnvProxy)
  ) {
    throw new McpError(
      'config',
      `${config.target}: proxy, ca and useEnvProxy cannot be combined with a dispatcher (set them on the dispatcher)`,
    );
  }
  if (
    extras.auth !== undefined &&
    Object.keys(config.http.headers).some((h) => h.toLowerCase() === 'authorization')
  ) {
    throw new McpError(
      'config',
      `${config.target}: an Authorization header cannot be combined with an authorizer`,
    );
  }
  const { HttpConnection } = await import('../transport/http/index.js');
  return new HttpConnection(config.http, { ...extras, secrets });
}
