/**
 * Applies the field table (`fields.ts`) to a config wherever one enters: `normalizeConfig` (`connect()`),
 * `normalizeBaseConfig` (a connection given in options), `checkConfigData` (the worker's `open()`) and
 * `checkPartialConfig` (settings). Each takes a plain-data snapshot first, then runs the same per-field
 * checks, so they judge every field alike. Pure: spawns nothing, connects nowhere, reads no file.
 *
 * Every problem is an `McpError` of kind `config` (delivery `not_sent`) thrown before anything starts,
 * also for input that is not a config at all (`undefined`, a string, a Proxy). Messages name the field,
 * never a value that may be secret, and config errors carry no `cause`.
 */
import { isMcpError, McpError } from '../errors/index.js';
import { serverDisplayName } from '../internal/server-name.js';
import { fail, typeOf } from './checks.js';
import {
  type CheckedFields,
  CONFIG_FIELDS,
  type ConfigFieldName,
  type FieldKind,
  fieldRule,
  fieldsFor,
  INFINITY_AT,
} from './fields.js';
import type { NormalizedCommon, NormalizedConfig, NormalizedHttp, NormalizedStdio } from './normalized.js';
import { quoteKey, snapshotPlainData } from './plain-data.js';
import type { BaseServerConfig, ServerConfig } from './server-config.js';

/** A stored or to-be-stored config: any part of a server config (`command` or `url` not required). */
export type PartialServerConfig = Partial<Record<keyof typeof CONFIG_FIELDS, unknown>> & {
  readonly [key: string]: unknown;
};

/**
 * Validates a server config and fills in defaults. Pure. Throws `McpError` with `kind: 'config'` naming
 * the first problem.
 */
export function normalizeConfig(config: ServerConfig): NormalizedConfig {
  return guarded(() => normalizeSnapshot(snapshotOf(config)));
}

/**
 * The config as the plain data that crosses into a worker thread, once `normalizeConfig` accepts it:
 * the worker's `open()` judges a config exactly as `connect()` does.
 */
export function checkConfigData(config: ServerConfig): ServerConfig {
  return guarded(() => {
    const snapshot = snapshotOf(config);
    normalizeSnapshot(snapshot);
    // cast: the plain copy of a config that normalizeSnapshot has just judged valid, field by field.
    return snapshot as unknown as ServerConfig;
  });
}

/**
 * Validates the shared settings alone, for a connection handed to `connect()` in options: `command` and
 * `url` are refused (the connection already says where the server is). Pure.
 */
export function normalizeBaseConfig(config: BaseServerConfig, target: string): NormalizedCommon {
  return guarded(() => {
    const raw = snapshotOf(config);
    for (const key of Object.keys(raw)) {
      if (fieldRule(key)?.kind !== 'both')
        fail(`${quoteKey(key)} cannot be combined with a connection given in options`);
    }
    return { ...commonOf(checkFields(raw, 'both')), target, serverKey: undefined };
  });
}

/**
 * Checks a stored or to-be-stored config, which may be partial (no `command` or `url`): plain data, every
 * field one a server config has, not mixing stdio and HTTP fields, and each field valid by the table's
 * check. Returns a plain copy. Errors are `config` errors starting with `what` and naming the field.
 */
export function checkPartialConfig(value: unknown, what: string): PartialServerConfig {
  try {
    return guarded(() => {
      const raw = snapshotOf(value);
      const kinds = new Set(Object.keys(raw).map((key) => fieldRule(key)?.kind));
      if (kinds.has('stdio') && kinds.has('http'))
        fail('it mixes stdio fields (command, env…) with HTTP fields (url, headers…)');
      checkFields(raw, kinds.has('http') ? 'http' : 'stdio', true);
      return raw;
    });
  } catch (error) {
    const message = (error as Error).message.replace(/^invalid server config: (it )?/, '');
    throw new McpError('config', `${what}: ${message}`);
  }
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
 * Refuses a key that is not a field of a `kind` server, then runs every field's check in table order
 * (`partial`: only the fields present). Returns the checked values.
 */
function checkFields(raw: Record<string, unknown>, kind: FieldKind, partial = false): CheckedFields {
  for (const key of Object.keys(raw)) {
    const rule = fieldRule(key);
    if (rule === undefined || (rule.kind !== 'both' && rule.kind !== kind))
      fail(`unknown key ${quoteKey(key)} for a ${kind === 'http' ? 'HTTP' : kind} server`);
  }
  const out: Partial<Record<ConfigFieldName, unknown>> = {};
  for (const name of fieldsFor(kind)) {
    if (partial && raw[name] === undefined) continue;
    out[name] = CONFIG_FIELDS[name].check(raw[name], raw);
  }
  return out as CheckedFields;
}

function normalizeSnapshot(raw: Record<string, unknown>): NormalizedConfig {
  const isStdio = raw['command'] !== undefined;
  if (isStdio === (raw['url'] !== undefined))
    fail('give exactly one of `command` (stdio) or `url` (Streamable HTTP)');
  const fields = checkFields(raw, isStdio ? 'stdio' : 'http');
  const common = commonOf(fields);
  return isStdio ? stdioOf(fields, common) : httpOf(fields, common);
}

type Common = Omit<NormalizedCommon, 'target' | 'serverKey'>;

function commonOf(fields: CheckedFields): Common {
  const { tools: toolFilter, pin: pins, maxResultChars, extensions } = fields;
  return {
    ...(extensions === undefined ? {} : { extensions }),
    ...(toolFilter === undefined ? {} : { toolFilter }),
    ...(maxResultChars === undefined ? {} : { maxResultChars }),
    ...(pins === undefined ? {} : { pins }),
    timeoutMs: fields.timeoutMs,
    connectTimeoutMs: fields.connectTimeoutMs,
    maxMessageBytes: fields.maxMessageBytes,
    protocolVersion: fields.protocolVersion,
    clientInfo: fields.clientInfo,
  };
}

function stdioOf(fields: CheckedFields, common: Common): NormalizedConfig {
  const command = fields.command ?? fail('command must be a non-empty string');
  const stdio: NormalizedStdio = {
    command,
    args: fields.args,
    env: fields.env,
    stderr: fields.stderr,
    maxMessageBytes: common.maxMessageBytes,
  };
  if (fields.envFrom !== undefined) stdio.envFrom = fields.envFrom;
  if (fields.cwd !== undefined) stdio.cwd = fields.cwd;
  if (fields.isolate === true) stdio.isolate = true;
  if (fields.graceMs !== undefined) stdio.graceMs = fields.graceMs;
  for (const key of ['maxSkippedLines', 'maxSkippedBytes', 'maxQueuedBytes'] as const) {
    const value = fields[key];
    if (value !== undefined) stdio[key] = value;
  }
  const serverKey = `stdio ${JSON.stringify([command, stdio.args, stdio.cwd ?? ''])}`;
  // Named by what the user typed (`node server.mjs`): program and script, never option values or env.
  const target = serverDisplayName(command, stdio.args);
  return { ...common, transport: 'stdio', stdio, target, serverKey };
}

function httpOf(fields: CheckedFields, common: Common): NormalizedConfig {
  const url = fields.url ?? fail('url must be a string');
  const http: NormalizedHttp = { url, headers: fields.headers, maxMessageBytes: common.maxMessageBytes };
  if (fields.authToken !== undefined) http.authToken = fields.authToken;
  if (fields.ca !== undefined) http.ca = fields.ca;
  if (fields.proxy !== undefined) http.proxy = fields.proxy;
  if (fields.useEnvProxy === true) http.useEnvProxy = true;
  const serverKey = `http ${url.href}`;
  return { ...common, transport: 'http', http, target: `${url.origin}${url.pathname}`, serverKey };
}
