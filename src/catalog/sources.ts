/**
 * The servers a catalog is made of, from what `catalog()` was given: a record of server configs, the
 * result of `loadServers()`, or its `servers`. A configured server goes through `resolveServer` (trust,
 * `disabled`, placeholders, stored pins) right here, so a server that must not start is a problem from
 * the outset and never starts. Names split refs at their first dot, so a name that holds one (or is not
 * usable as a name in a config file) is a problem too.
 */
import type { ServerConfig } from '../config/index.js';
import { isMcpError, McpError } from '../errors/index.js';
import { redact } from '../internal/redact.js';
import { nameProblem } from '../servers/names.js';
import { resolveServer } from '../servers/resolve.js';
import type { ConfiguredServer, LoadedServers } from '../servers/types.js';
import type { CatalogProblem } from './types.js';

/** What `catalog()` takes. */
export type CatalogServers =
  | Readonly<Record<string, ServerConfig>>
  | LoadedServers
  | LoadedServers['servers'];

/** One server: a config to connect with, or why it is never started. */
export type Source = { config: ServerConfig } | { problem: CatalogProblem };

/** Most servers in one catalog: each is a process or a connection. */
export const MAX_SERVERS = 256;

/** The servers of `input`, by name in the order given, each a config or a problem; `config` past `MAX_SERVERS`. */
export function sourcesOf(input: CatalogServers, trustProject: boolean): Map<string, Source> {
  const loaded = isLoaded(input);
  const record: Readonly<Record<string, unknown>> = loaded ? input.servers : input;
  const names = Object.keys(record);
  if (names.length > MAX_SERVERS)
    throw new McpError('config', `a catalog holds at most ${MAX_SERVERS} servers (got ${names.length})`);
  const out = new Map<string, Source>();
  for (const name of names) {
    const entry = record[name];
    const bad = nameProblem(name);
    if (bad !== undefined) {
      out.set(name, { problem: { server: name, kind: 'config', message: `server name: ${bad}` } });
      continue;
    }
    out.set(name, isConfigured(entry) ? configured(entry, trustProject) : { config: entry as ServerConfig });
  }
  // An entry `loadServers` left out for a problem of its own is a problem of the catalog too.
  if (loaded)
    for (const problem of input.problems)
      if (problem.entry !== undefined && !out.has(problem.entry) && out.size < 2 * MAX_SERVERS)
        out.set(problem.entry, {
          problem: { server: problem.entry, kind: 'config', message: redact(problem.message, 1_000) },
        });
  return out;
}

function configured(server: ConfiguredServer, trustProject: boolean): Source {
  const kind =
    server.disabled === true ? 'disabled' : !server.trusted && !trustProject ? 'untrusted' : 'config';
  try {
    return { config: resolveServer(server, { trustProject }) };
  } catch (error) {
    const message = isMcpError(error) ? error.message : redact(String(error), 1_000);
    return { problem: { server: server.name, kind, message } };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `loadServers()`'s result: its `servers` record and its arrays (a config record has no array values). */
function isLoaded(input: CatalogServers): input is LoadedServers {
  const value = input as Readonly<Record<string, unknown>>;
  return isObject(value['servers']) && Array.isArray(value['problems']) && Array.isArray(value['files']);
}

/** A `ConfiguredServer` of `loadServers()` (its config, origin and trust), not a server config. */
function isConfigured(value: unknown): value is ConfiguredServer {
  return (
    isObject(value) &&
    isObject(value['config']) &&
    isObject(value['origin']) &&
    typeof value['trusted'] === 'boolean' &&
    typeof value['name'] === 'string'
  );
}
