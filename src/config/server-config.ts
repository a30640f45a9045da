/**
 * The server config: plain JSON data, validated and normalized with no side effect. A config names one
 * server — a command to spawn (stdio) or a URL (Streamable HTTP) — and the limits of talking to it.
 * Handlers (elicitation, logging, progress) are functions and go in options, never here. This module is
 * the only place outside `src/transport/` that knows the transports' settings.
 */
import { McpError } from '../errors/index.js';
import { checkUserHeaders } from '../protocol/managed-headers.js';
import { checkEndpointUrl } from '../protocol/url-policy.js';
import type { ProtocolVersionChoice } from '../protocol/versions.js';
import type { HttpTransportOptions, StderrMode, StdioTransportOptions } from '../transport/options.js';
import { PACKAGE_VERSION } from '../version.js';
import { findNonPlainData } from './plain-data.js';

/** `clientInfo` sent to servers (an MCP `Implementation`). */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

/** Settings every server config shares; alone, they configure a connection handed to `connect()` in options. */
export interface BaseServerConfig {
  /** Default deadline of every request, in ms (per-call `timeoutMs` wins). Default 60000. */
  timeoutMs?: number | undefined;
  /** Largest message accepted from the server, in bytes. Default 16 MiB. */
  maxMessageBytes?: number | undefined;
  /** `'2025-11-25'` (default), `'2026-07-28'`, or `'auto'`. */
  protocolVersion?: ProtocolVersionChoice | undefined;
  /** The `clientInfo` sent to the server. Default `{ name: 'autos-mcp', version: <this package's version> }`. */
  clientInfo?: ClientInfo | undefined;
}

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioServerConfig extends BaseServerConfig {
  /** The executable. Never a shell string: it is not split on spaces. */
  command: string;
  args?: string[] | undefined;
  cwd?: string | undefined;
  /** Variables for the child, on top of a small allow-list of the parent's environment. */
  env?: Record<string, string> | undefined;
  /** What happens to the server's stderr. Default `'capture'` (bounded, redacted, shown in close reports). */
  stderr?: StderrMode | undefined;
  /** Linux only: run the server in its own PID namespace (opt-in, feature-detected). */
  isolate?: boolean | undefined;
  /** How long `close()` waits after closing stdin before SIGTERM, and again before SIGKILL. Default 2000 ms. */
  graceMs?: number | undefined;
  /**
   * stdout lines that are not MCP messages (banners, log lines) are skipped and reported; past this many in
   * all the connection fails with `kind: 'protocol'`. Default 1000; 0 fails on the first.
   */
  maxSkippedLines?: number | undefined;
  /** The same bound in bytes of such lines. Default 1 MiB. */
  maxSkippedBytes?: number | undefined;
}

/** A remote server spoken to over Streamable HTTP. */
export interface HttpServerConfig extends BaseServerConfig {
  /** The MCP endpoint. `https:`, or `http:` on loopback only. */
  url: string;
  /** Extra request headers; they may not override the headers autos-mcp manages. */
  headers?: Record<string, string> | undefined;
  /** Sent as `Authorization: Bearer <authToken>` on every request. */
  authToken?: string | undefined;
  /** Extra CA certificates (PEM) trusted on top of the system ones. */
  ca?: string[] | undefined;
  /** An HTTP(S) proxy URL for this server. */
  proxy?: string | undefined;
  /** Honour `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from the environment. Default false. */
  useEnvProxy?: boolean | undefined;
}

/**
 * One MCP server, as plain data: `{ command, args? }` for a local server spoken to over stdin/stdout, or
 * `{ url }` for a remote one over Streamable HTTP, plus the shared settings of `BaseServerConfig`.
 */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** The normalized settings the client itself reads, whatever the transport. */
export interface NormalizedCommon {
  timeoutMs: number;
  maxMessageBytes: number;
  protocolVersion: ProtocolVersionChoice;
  clientInfo: ClientInfo;
  /** A display name for messages, never a secret. */
  target: string;
  /** Identifies the server for the `auto` era cache (command line or endpoint); undefined: not cached. */
  serverKey: string | undefined;
}

export type NormalizedConfig =
  | (NormalizedCommon & { transport: 'stdio'; stdio: StdioTransportOptions })
  | (NormalizedCommon & { transport: 'http'; http: HttpTransportOptions });

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_TIMEOUT_MS = 2_147_483_647; // setTimeout's ceiling

const COMMON_KEYS = ['timeoutMs', 'maxMessageBytes', 'protocolVersion', 'clientInfo'];
const STDIO_KEYS = new Set([
  ...COMMON_KEYS,
  'command',
  'args',
  'cwd',
  'env',
  'stderr',
  'isolate',
  'graceMs',
  'maxSkippedLines',
  'maxSkippedBytes',
]);
const BASE_KEYS = new Set(COMMON_KEYS);
const HTTP_KEYS = new Set([...COMMON_KEYS, 'url', 'headers', 'authToken', 'ca', 'proxy', 'useEnvProxy']);

function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

function stringRecord(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${name} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    if (typeof item !== 'string') fail(`${name}.${key} must be a string`);
    out[key] = item;
  }
  return out;
}

function positiveInt(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    fail(`${name} must be a positive integer no larger than ${max}`);
  }
  return value;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') fail(`${name} must be a non-empty string`);
  return value;
}

function clientInfoOf(value: unknown): ClientInfo {
  if (value === undefined) return { name: 'autos-mcp', version: PACKAGE_VERSION };
  if (typeof value !== 'object' || value === null) fail('clientInfo must be {name, version}');
  const info = value as Record<string, unknown>;
  if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    fail('clientInfo needs string name and version');
  return info as unknown as ClientInfo;
}

function protocolVersionOf(value: unknown): ProtocolVersionChoice {
  if (value === undefined) return '2025-11-25';
  if (value === '2025-11-25' || value === '2026-07-28' || value === 'auto') return value;
  return fail(`protocolVersion must be '2025-11-25', '2026-07-28' or 'auto' (got ${JSON.stringify(value)})`);
}

/**
 * Validates a server config and fills in defaults. Pure: spawns nothing, connects nowhere, reads no file.
 * Throws `McpError` with `kind: 'config'` naming the first problem.
 */
export function normalizeConfig(config: ServerConfig): NormalizedConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) fail('expected an object');
  const reason = findNonPlainData(config);
  if (reason) fail(reason);
  const raw = config as unknown as Record<string, unknown>;
  const isStdio = 'command' in raw && raw['command'] !== undefined;
  const isHttp = 'url' in raw && raw['url'] !== undefined;
  if (isStdio === isHttp) fail('give exactly one of `command` (stdio) or `url` (Streamable HTTP)');
  const allowed = isStdio ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(raw)) {
    if (raw[key] !== undefined && !allowed.has(key))
      fail(`unknown key ${JSON.stringify(key)} for a ${isStdio ? 'stdio' : 'HTTP'} server`);
  }
  const common = commonOf(raw);
  return isStdio ? normalizeStdio(raw, common) : normalizeHttp(raw, common);
}

/**
 * Validates the shared settings alone, for a connection handed to `connect()` in options: `command` and
 * `url` are refused (the connection already says where the server is). Pure.
 */
export function normalizeBaseConfig(config: BaseServerConfig, target: string): NormalizedCommon {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) fail('expected an object');
  const reason = findNonPlainData(config);
  if (reason) fail(reason);
  const raw = config as unknown as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (raw[key] !== undefined && !BASE_KEYS.has(key))
      fail(`${JSON.stringify(key)} cannot be combined with a connection given in options`);
  }
  return { ...commonOf(raw), target, serverKey: undefined };
}

function commonOf(raw: Record<string, unknown>): Omit<NormalizedCommon, 'target' | 'serverKey'> {
  return {
    timeoutMs: positiveInt(raw['timeoutMs'], 'timeoutMs', DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS),
    maxMessageBytes: positiveInt(
      raw['maxMessageBytes'],
      'maxMessageBytes',
      DEFAULT_MAX_MESSAGE_BYTES,
      2 ** 31 - 1,
    ),
    protocolVersion: protocolVersionOf(raw['protocolVersion']),
    clientInfo: clientInfoOf(raw['clientInfo']),
  };
}

function normalizeStdio(
  raw: Record<string, unknown>,
  common: Omit<NormalizedCommon, 'target' | 'serverKey'>,
): NormalizedConfig {
  const command = raw['command'];
  if (typeof command !== 'string' || command.trim() === '') fail('command must be a non-empty string');
  if (command.includes('\0')) fail('command contains a NUL byte');
  const args = raw['args'] ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' || a.includes('\0'))) {
    fail('args must be an array of strings without NUL bytes');
  }
  const stderr = raw['stderr'] ?? 'capture';
  if (stderr !== 'capture' && stderr !== 'inherit' && stderr !== 'ignore')
    fail("stderr must be 'capture', 'inherit' or 'ignore'");
  if (raw['isolate'] !== undefined && typeof raw['isolate'] !== 'boolean') fail('isolate must be a boolean');
  const stdio: StdioTransportOptions = {
    command,
    args: [...(args as string[])],
    env: stringRecord(raw['env'], 'env'),
    stderr,
    maxMessageBytes: common.maxMessageBytes,
  };
  const cwd = optionalString(raw['cwd'], 'cwd');
  if (cwd !== undefined) stdio.cwd = cwd;
  if (raw['isolate'] === true) stdio.isolate = true;
  if (raw['graceMs'] !== undefined) stdio.graceMs = positiveInt(raw['graceMs'], 'graceMs', 2000, 600_000);
  for (const key of ['maxSkippedLines', 'maxSkippedBytes'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1)
      fail(`${key} must be a non-negative integer`);
    stdio[key] = value;
  }
  const base = command.split(/[\\/]/).pop() ?? command;
  const serverKey = `stdio ${JSON.stringify([command, stdio.args, stdio.cwd ?? ''])}`;
  return { ...common, transport: 'stdio', stdio, target: `stdio server "${base}"`, serverKey };
}

function normalizeHttp(
  raw: Record<string, unknown>,
  common: Omit<NormalizedCommon, 'target' | 'serverKey'>,
): NormalizedConfig {
  if (typeof raw['url'] !== 'string') fail('url must be a string');
  const url = checkEndpointUrl(raw['url']);
  const authToken = optionalString(raw['authToken'], 'authToken');
  const headers = stringRecord(raw['headers'], 'headers');
  checkUserHeaders(headers, { hasAuth: authToken !== undefined });
  const ca = raw['ca'];
  if (ca !== undefined && (!Array.isArray(ca) || ca.some((c) => typeof c !== 'string')))
    fail('ca must be an array of PEM strings');
  if (raw['useEnvProxy'] !== undefined && typeof raw['useEnvProxy'] !== 'boolean')
    fail('useEnvProxy must be a boolean');
  const http: HttpTransportOptions = { url, headers, maxMessageBytes: common.maxMessageBytes };
  if (authToken !== undefined) http.authToken = authToken;
  if (ca !== undefined) http.ca = [...(ca as string[])];
  const proxy = optionalString(raw['proxy'], 'proxy');
  if (proxy !== undefined) http.proxy = proxy;
  if (raw['useEnvProxy'] === true) http.useEnvProxy = true;
  const serverKey = `http ${url.href}`;
  return { ...common, transport: 'http', http, target: `${url.origin}${url.pathname}`, serverKey };
}
