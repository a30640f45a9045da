/**
 * The server config: plain JSON data, validated and normalized with no side effect. A config names one
 * server — a command to spawn (stdio) or a URL (Streamable HTTP) — and the limits of talking to it.
 * Handlers (elicitation, logging, progress) are functions and go in options, never here. This module is
 * the only place outside `src/transport/` that knows the transports' settings.
 *
 * Every problem is an `McpError` of kind `config` (delivery `not_sent`) thrown before anything starts,
 * also for input that is not a config at all (`undefined`, a string, a Proxy that throws). Messages name
 * the field, never a value that may be secret (env and header values, `authToken`, URL userinfo and
 * query, proxy credentials), and config errors carry no `cause`.
 */
import { isMcpError, McpError } from '../errors/index.js';
import { checkAuthToken, checkUserHeaders } from '../protocol/managed-headers.js';
import { checkEndpointUrl, checkProxyUrl } from '../protocol/url-policy.js';
import { isProtocolVersionChoice, type ProtocolVersionChoice } from '../protocol/versions.js';
import type { HttpTransportOptions, StderrMode, StdioTransportOptions } from '../transport/options.js';
import { serverDisplayName } from '../transport/stdio/display.js';
import { envNameProblem, envValueProblem } from '../transport/stdio/env.js';
import { PACKAGE_VERSION } from '../version.js';
import { durationMs } from './durations.js';
import { type EnvSource, envFromOf } from './env-from.js';
import { pathKey, quoteKey, snapshotPlainData } from './plain-data.js';
import {
  type ToolFilterConfig,
  type ToolPin,
  type ToolPinsConfig,
  toolFilterOf,
  toolPinsOf,
} from './tool-policy.js';

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
  /** Default deadline of every request, in ms (per-call `timeoutMs` wins); `Infinity`: none. Default 60000. */
  timeoutMs?: number | undefined;
  /**
   * Deadline of the whole connect phase (spawn, then `initialize`, or the `auto` probe and `initialize`), in
   * ms, apart from the per-request `timeoutMs`; `Infinity`: none. Default 30000, or `timeoutMs` if smaller.
   */
  connectTimeoutMs?: number | undefined;
  /** Largest message accepted from the server, in bytes. Default 16 MiB. */
  maxMessageBytes?: number | undefined;
  /** `'2025-11-25'` (default), `'2026-07-28'`, or `'auto'`. */
  protocolVersion?: ProtocolVersionChoice | undefined;
  /** The `clientInfo` sent to the server. Default `{ name: 'autos-mcp', version: <this package's version> }`. */
  clientInfo?: ClientInfo | undefined;
  /**
   * Which tools are listed and may be called: `allow` (only these), `deny` (never these; wins over allow),
   * each a list of exact names or `*` globs. Others are in `listToolsDetailed().excluded` and refused with
   * `invalid_tool`, `not_sent`.
   */
  tools?: ToolFilterConfig | undefined;
  /**
   * Approved definitions, per tool name: a digest from `toolDigest()` (the string, or `{ digest, parts }`
   * so a change can be named by part). A pinned tool whose definition differs, or that is no longer
   * listed, is refused with `tool_changed`, `not_sent`.
   */
  pin?: ToolPinsConfig | undefined;
}

/** A server started as a child process and spoken to over stdin/stdout. */
export interface StdioServerConfig extends BaseServerConfig {
  /**
   * The executable. Never a shell string: it is not split on spaces (one that does not exist but is a
   * program followed by words, like `"node server.mjs"`, fails with a `config` error showing the split form).
   */
  command: string;
  args?: string[] | undefined;
  cwd?: string | undefined;
  /** Variables for the child, on top of a small allow-list of the parent's environment. */
  env?: Record<string, string> | undefined;
  /**
   * Variables whose values are looked up just before the server is spawned: `{ setting, key }` from
   * `autos-mcp/settings`, or `{ env }` from this process's environment. Never in `env` as well.
   */
  envFrom?: Record<string, EnvSource> | undefined;
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
  /**
   * Bytes of messages waiting to be written to a server that does not read its stdin, before the connection
   * fails with `kind: 'transport'`. Default 32 MiB; one message larger than this alone is still sent.
   */
  maxQueuedBytes?: number | undefined;
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
  /** Deadline of the connect phase as a whole (see `BaseServerConfig.connectTimeoutMs`). */
  connectTimeoutMs: number;
  maxMessageBytes: number;
  protocolVersion: ProtocolVersionChoice;
  clientInfo: ClientInfo;
  /** A display name for messages, never a secret. */
  target: string;
  /** Identifies the server for the `auto` era cache (command line or endpoint); undefined: not cached. */
  serverKey: string | undefined;
  /** `tools`, validated; absent: every tool. */
  toolFilter?: ToolFilterConfig;
  /** `pin`, validated (own keys only: look up with `Object.hasOwn`); absent: nothing pinned. */
  pins?: Record<string, ToolPin>;
}

export type NormalizedConfig =
  | (NormalizedCommon & { transport: 'stdio'; stdio: StdioTransportOptions })
  | (NormalizedCommon & { transport: 'http'; http: HttpTransportOptions });

export const DEFAULT_TIMEOUT_MS = 60_000;
/** The connect phase's deadline when the config sets none (or `timeoutMs` when that is smaller). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_GRACE_MS = 600_000;
/** `Infinity` is plain data only where it means something: `timeoutMs: Infinity` is "no deadline". */
const INFINITY_AT: ReadonlySet<string> = new Set(['config.timeoutMs', 'config.connectTimeoutMs']);
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title', 'description', 'websiteUrl']);
/** One PEM block; `ca` strings must hold at least one. */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]{1,40})-----[\s\S]*?-----END \1-----/;
/** C0 controls and DEL; `TEXT_CONTROL` spares TAB, LF and CR (allowed in a description). */
const CONTROL = /[\u0000-\u001f\u007f]/;
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const COMMON_KEYS = [
  'timeoutMs',
  'connectTimeoutMs',
  'maxMessageBytes',
  'protocolVersion',
  'clientInfo',
  'tools',
  'pin',
];
const STDIO_KEYS = new Set([
  ...COMMON_KEYS,
  'command',
  'args',
  'cwd',
  'env',
  'envFrom',
  'stderr',
  'isolate',
  'graceMs',
  'maxSkippedLines',
  'maxSkippedBytes',
  'maxQueuedBytes',
]);
const BASE_KEYS = new Set(COMMON_KEYS);
const HTTP_KEYS = new Set([...COMMON_KEYS, 'url', 'headers', 'authToken', 'ca', 'proxy', 'useEnvProxy']);

function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

/** What `value` is, for a message: its type, never its content. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

function stringRecord(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${name} must be an object of strings (got ${typeOf(value)})`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    if (typeof item !== 'string') fail(`${name}${pathKey(key)} must be a string (got ${typeOf(item)})`);
    // Defined, not assigned: a key `__proto__` stays a key.
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `env`: names without `=` or NUL and not empty, values without NUL (spawn would throw quoting them). */
function envOf(value: unknown): Record<string, string> {
  const env = stringRecord(value, 'env');
  for (const [key, item] of Object.entries(env)) {
    const nameProblem = envNameProblem(key);
    if (nameProblem !== undefined) fail(nameProblem);
    const valueProblem = envValueProblem(item);
    if (valueProblem !== undefined) fail(`the value of env${pathKey(key)} ${valueProblem}`);
  }
  return env;
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
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('clientInfo must be {name, version}');
  const info = value as Record<string, unknown>;
  for (const key of Object.keys(info)) {
    if (!CLIENT_INFO_KEYS.has(key))
      fail(
        `clientInfo${pathKey(key)} is not a clientInfo field (name, version, title, description, websiteUrl)`,
      );
  }
  if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    fail('clientInfo needs string name and version');
  const out: ClientInfo = { name: info['name'], version: info['version'] };
  for (const key of ['name', 'version', 'title', 'description', 'websiteUrl'] as const) {
    const field = info[key];
    if (field === undefined) continue;
    if (typeof field !== 'string') fail(`clientInfo.${key} must be a string`);
    if ((key === 'description' ? TEXT_CONTROL : CONTROL).test(field))
      fail(`clientInfo.${key} holds a control character`);
    if (key === 'websiteUrl' && !/^https?:$/.test(URL.canParse(field) ? new URL(field).protocol : ''))
      fail('clientInfo.websiteUrl must be an absolute http(s) URL');
    out[key] = field;
  }
  return out;
}

function protocolVersionOf(value: unknown): ProtocolVersionChoice {
  if (value === undefined) return '2025-11-25';
  if (isProtocolVersionChoice(value)) return value;
  const got =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? JSON.stringify(value) : typeOf(value);
  return fail(`protocolVersion must be '2025-11-25', '2026-07-28' or 'auto' (got ${got})`);
}

/**
 * Runs a validator, turning whatever else it throws (a Proxy trap, a revoked Proxy) into a `config`
 * error with no cause: what a hostile object throws may quote anything.
 */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isMcpError(error) && error.kind === 'config') throw error;
    throw new McpError(
      'config',
      'invalid server config: it could not be read as plain data (a Proxy or getter threw)',
    );
  }
}

/** The config as a plain snapshot (read once, no getter run), or a config error naming why not. */
function snapshotOf(config: unknown): Record<string, unknown> {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    fail(`expected an object (got ${typeOf(config)})`);
  const snapshot = snapshotPlainData(config, 'config', { infinityAt: INFINITY_AT });
  if (!snapshot.ok) fail(snapshot.reason);
  return snapshot.value as Record<string, unknown>;
}

/**
 * Validates a server config and fills in defaults. Pure: spawns nothing, connects nowhere, reads no file.
 * Throws `McpError` with `kind: 'config'` naming the first problem.
 */
export function normalizeConfig(config: ServerConfig): NormalizedConfig {
  return guarded(() => normalizeSnapshot(snapshotOf(config)));
}

function normalizeSnapshot(raw: Record<string, unknown>): NormalizedConfig {
  const isStdio = 'command' in raw && raw['command'] !== undefined;
  const isHttp = 'url' in raw && raw['url'] !== undefined;
  if (isStdio === isHttp) fail('give exactly one of `command` (stdio) or `url` (Streamable HTTP)');
  const allowed = isStdio ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(raw)) {
    if (raw[key] !== undefined && !allowed.has(key))
      fail(`unknown key ${quoteKey(key)} for a ${isStdio ? 'stdio' : 'HTTP'} server`);
  }
  const common = commonOf(raw);
  return isStdio ? normalizeStdio(raw, common) : normalizeHttp(raw, common);
}

/**
 * Validates the shared settings alone, for a connection handed to `connect()` in options: `command` and
 * `url` are refused (the connection already says where the server is). Pure.
 */
export function normalizeBaseConfig(config: BaseServerConfig, target: string): NormalizedCommon {
  return guarded(() => {
    const raw = snapshotOf(config);
    for (const key of Object.keys(raw)) {
      if (!BASE_KEYS.has(key)) fail(`${quoteKey(key)} cannot be combined with a connection given in options`);
    }
    return { ...commonOf(raw), target, serverKey: undefined };
  });
}

function commonOf(raw: Record<string, unknown>): Omit<NormalizedCommon, 'target' | 'serverKey'> {
  const timeoutMs = durationMs(raw['timeoutMs'], 'timeoutMs', DEFAULT_TIMEOUT_MS, { positive: true });
  const toolFilter = toolFilterOf(raw['tools']);
  const pins = toolPinsOf(raw['pin']);
  return {
    ...(toolFilter === undefined ? {} : { toolFilter }),
    ...(pins === undefined ? {} : { pins }),
    timeoutMs,
    connectTimeoutMs: durationMs(
      raw['connectTimeoutMs'],
      'connectTimeoutMs',
      Math.min(DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs),
      { positive: true },
    ),
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
    env: envOf(raw['env']),
    stderr,
    maxMessageBytes: common.maxMessageBytes,
  };
  const envFrom = envFromOf(raw['envFrom'], stdio.env);
  if (envFrom !== undefined) stdio.envFrom = envFrom;
  const cwd = optionalString(raw['cwd'], 'cwd');
  if (cwd?.includes('\0')) fail('cwd contains a NUL byte');
  if (cwd !== undefined) stdio.cwd = cwd;
  if (raw['isolate'] === true) stdio.isolate = true;
  if (raw['graceMs'] !== undefined) {
    const graceMs = durationMs(raw['graceMs'], 'graceMs', 2000, { positive: true, finite: true });
    if (graceMs > MAX_GRACE_MS) fail(`graceMs must be at most ${MAX_GRACE_MS}`);
    stdio.graceMs = graceMs;
  }
  for (const key of ['maxSkippedLines', 'maxSkippedBytes', 'maxQueuedBytes'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1)
      fail(`${key} must be a non-negative integer`);
    stdio[key] = value;
  }
  const serverKey = `stdio ${JSON.stringify([command, stdio.args, stdio.cwd ?? ''])}`;
  // Named by what the user typed (`node server.mjs`): program and script, never option values or env.
  const target = serverDisplayName(command, stdio.args);
  return { ...common, transport: 'stdio', stdio, target, serverKey };
}

function normalizeHttp(
  raw: Record<string, unknown>,
  common: Omit<NormalizedCommon, 'target' | 'serverKey'>,
): NormalizedConfig {
  if (typeof raw['url'] !== 'string') fail(`url must be a string (got ${typeOf(raw['url'])})`);
  const url = checkEndpointUrl(raw['url']);
  const authToken = raw['authToken'];
  if (authToken !== undefined) {
    if (typeof authToken !== 'string') fail(`authToken must be a string (got ${typeOf(authToken)})`);
    checkAuthToken(authToken);
  }
  const headers = stringRecord(raw['headers'], 'headers');
  checkUserHeaders(headers, { hasAuth: authToken !== undefined });
  const ca = caOf(raw['ca']);
  const proxy = raw['proxy'];
  if (proxy !== undefined) {
    if (typeof proxy !== 'string') fail(`proxy must be a string (got ${typeOf(proxy)})`);
    checkProxyUrl(proxy);
  }
  if (raw['useEnvProxy'] !== undefined && typeof raw['useEnvProxy'] !== 'boolean')
    fail('useEnvProxy must be a boolean');
  const http: HttpTransportOptions = { url, headers, maxMessageBytes: common.maxMessageBytes };
  if (authToken !== undefined) http.authToken = authToken;
  if (ca !== undefined) http.ca = ca;
  if (proxy !== undefined) http.proxy = proxy;
  if (raw['useEnvProxy'] === true) http.useEnvProxy = true;
  const serverKey = `http ${url.href}`;
  return { ...common, transport: 'http', http, target: `${url.origin}${url.pathname}`, serverKey };
}

/** `ca`: strings holding at least one PEM block and no private key. Messages never quote a string. */
function caOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) fail(`ca must be an array of PEM strings (got ${typeOf(value)})`);
  return value.map((item: unknown, i) => {
    if (typeof item !== 'string') fail(`ca[${i}] must be a PEM string (got ${typeOf(item)})`);
    if (/PRIVATE KEY-----/.test(item))
      fail(
        `ca[${i}] holds a private key; ca takes CA certificates, and a private key does not belong in a config`,
      );
    if (item.includes('\0') || !PEM_BLOCK.test(item))
      fail(
        `ca[${i}] does not look like PEM ("-----BEGIN CERTIFICATE-----" … "-----END CERTIFICATE-----"); pass the file's contents, not its path`,
      );
    return item;
  });
}
