/**
 * One `[mcp_servers.<name>]` table of Codex's `config.toml` mapped to a server config: `command`, `args`,
 * `env`, `env_vars` (variables passed through, as `${NAME}`), `cwd`; `url`, `http_headers`,
 * `env_http_headers` and `bearer_token_env_var` (as `${VAR}` placeholders, read at connect);
 * `startup_timeout_sec`/`_ms` and `tool_timeout_sec`; `enabled = false`. `enabled_tools` and
 * `disabled_tools` become the tool filter `tools: { allow, deny }`.
 */
import type { ServerConfig } from '../config/index.js';
import {
  EntryProblem,
  isRecord,
  type Mapped,
  problem,
  recordOf,
  stringOf,
  stringsOf,
  typeOf,
} from './entry.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function mapCodexEntry(value: unknown): Mapped {
  try {
    return mapTable(value);
  } catch (error) {
    if (error instanceof EntryProblem) return { ok: false, message: error.message };
    throw error;
  }
}

function envName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ENV_NAME.test(value))
    problem(`${field} must name an environment variable`);
  return value;
}

function seconds(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    problem(`${field} must be a positive number (got ${typeOf(value)})`);
  return Math.round(value * 1000);
}

function mapTable(value: unknown): Mapped {
  if (!isRecord(value)) return problem(`the entry must be a table (got ${typeOf(value)})`);
  const disabled = value['enabled'] === false;
  const allow = stringsOf(value['enabled_tools'], 'enabled_tools');
  const deny = stringsOf(value['disabled_tools'], 'disabled_tools');
  const filter =
    allow === undefined && deny === undefined
      ? {}
      : { tools: { ...(allow === undefined ? {} : { allow }), ...(deny === undefined ? {} : { deny }) } };
  const startupMs =
    value['startup_timeout_ms'] ?? seconds(value['startup_timeout_sec'], 'startup_timeout_sec');
  if (startupMs !== undefined && (typeof startupMs !== 'number' || !(startupMs > 0)))
    problem('startup_timeout_ms must be a positive number');
  const toolMs = seconds(value['tool_timeout_sec'], 'tool_timeout_sec');
  const common = {
    ...filter,
    ...(startupMs === undefined ? {} : { connectTimeoutMs: Math.round(startupMs as number) }),
    ...(toolMs === undefined ? {} : { timeoutMs: toolMs }),
  };
  const url = stringOf(value['url'], 'url');
  if (url !== undefined) {
    if (value['command'] !== undefined) problem('it has both a command and a url; give one');
    const headers: Record<string, string> = { ...recordOf(value['http_headers'], 'http_headers') };
    for (const [header, name] of Object.entries(
      recordOf(value['env_http_headers'], 'env_http_headers') ?? {},
    ))
      headers[header] = `\${${envName(name, 'env_http_headers')}}`;
    const token = value['bearer_token_env_var'];
    const config = {
      url,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(token === undefined ? {} : { authToken: `\${${envName(token, 'bearer_token_env_var')}}` }),
      ...common,
    } as ServerConfig;
    return { ok: true, config, transport: 'http', disabled };
  }
  const command = stringOf(value['command'], 'command');
  if (command === undefined) problem('it has neither a command nor a url');
  const args = stringsOf(value['args'], 'args');
  const env: Record<string, string> = {};
  for (const name of stringsOf(value['env_vars'], 'env_vars') ?? [])
    env[envName(name, 'env_vars')] = `\${${name}}`;
  Object.assign(env, recordOf(value['env'], 'env'));
  const cwd = stringOf(value['cwd'], 'cwd');
  const config = {
    command,
    ...(args === undefined ? {} : { args }),
    ...(Object.keys(env).length > 0 ? { env } : {}),
    ...(cwd === undefined ? {} : { cwd }),
    ...common,
  } as ServerConfig;
  return { ok: true, config, transport: 'stdio', disabled };
}
