/**
 * One entry of an `mcpServers`-shaped file (Claude Code, Claude Desktop, Cursor, VS Code's `servers`,
 * Windsurf, autos-mcp's own) mapped to a server config: `command`/`args`/`env`/`cwd`, or `url` (also
 * `serverUrl`, `httpUrl`) and `headers`; `type`/`transport` (`stdio`, `http`, `streamable-http`);
 * `disabled`/`enabled`. What cannot be honoured (the deprecated HTTP+SSE transport, a command that makes
 * headers, an env file) makes the entry a problem that says why; other clients' extra fields are ignored.
 * autos-mcp's own files take every server config field too (`timeoutMs`, the tool filter `tools`, `pin`…),
 * carried as written and checked by `normalizeConfig` at connect.
 */
import type { ServerConfig } from '../config/index.js';
import type { ConfigFormat } from './types.js';

/** A mapped entry, or why it cannot be used. */
export type Mapped =
  | {
      readonly ok: true;
      readonly config: ServerConfig;
      readonly transport: 'stdio' | 'http';
      readonly disabled: boolean;
    }
  | { readonly ok: false; readonly message: string };

export type Raw = Record<string, unknown>;

/** Thrown inside a mapping: the entry's problem. */
export class EntryProblem extends Error {}

export function problem(message: string): never {
  throw new EntryProblem(message);
}

export function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `value` is, for a message: its type, never its content. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function stringOf(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    problem(`${field} must be a non-empty string (got ${typeOf(value)})`);
  return value;
}

export function stringsOf(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    problem(`${field} must be an array of strings`);
  return [...(value as string[])];
}

export function recordOf(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) problem(`${field} must be an object of strings (got ${typeOf(value)})`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string')
      problem(`${field} must be an object of strings (one value is ${typeOf(item)})`);
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The transport a `type`/`transport` value names. */
function transportOf(raw: Raw): 'stdio' | 'http' | undefined {
  const value = raw['type'] ?? raw['transport'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') problem(`type must be a string (got ${typeOf(value)})`);
  const type = value.toLowerCase();
  if (type === 'stdio' || type === 'local') return 'stdio';
  if (['http', 'streamable-http', 'streamable_http', 'streamablehttp', 'remote'].includes(type))
    return 'http';
  if (type === 'sse')
    problem(
      'it uses the deprecated HTTP+SSE transport (type "sse"), which autos-mcp does not speak; if the server also serves Streamable HTTP, set type "http" and its endpoint URL',
    );
  return problem(`type ${/^[\w-]{1,32}$/.test(value) ? JSON.stringify(value) : '(…)'} is not stdio or http`);
}

/** Fields of other clients that change how a server is reached, which autos-mcp cannot do for them. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  envFile: 'it reads variables from an env file (envFile), which autos-mcp does not do; put them in env',
  headersHelper: 'its headers come from a command (headersHelper), which autos-mcp does not run',
};

/** Keys of an autos-mcp entry that are not server config fields. */
const OWN_KEYS = new Set(['type', 'transport', 'disabled', 'enabled', 'serverUrl', 'httpUrl']);

export function mapEntry(value: unknown, format: ConfigFormat): Mapped {
  try {
    return mapRaw(value, format);
  } catch (error) {
    if (error instanceof EntryProblem) return { ok: false, message: error.message };
    throw error;
  }
}

function mapRaw(value: unknown, format: ConfigFormat): Mapped {
  if (!isRecord(value)) return problem(`the entry must be an object (got ${typeOf(value)})`);
  for (const [key, why] of Object.entries(UNSUPPORTED)) if (value[key] !== undefined) problem(why);
  const declared = transportOf(value);
  const url = stringOf(value['url'] ?? value['serverUrl'] ?? value['httpUrl'], 'url');
  const command = value['command'];
  if (url !== undefined && command !== undefined) problem('it has both a command and a url; give one');
  const transport = declared ?? (url !== undefined ? 'http' : 'stdio');
  const disabled = value['disabled'] === true || value['enabled'] === false;
  const own = format === 'autos-mcp';
  // autos-mcp's own entries carry every server config field as written; normalizeConfig checks them at connect.
  const extra: Raw = {};
  if (own)
    for (const [key, item] of Object.entries(value))
      if (!OWN_KEYS.has(key) && !['command', 'args', 'env', 'cwd', 'url', 'headers'].includes(key))
        Object.defineProperty(extra, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
  if (transport === 'http') {
    if (url === undefined) problem('an http server needs a url');
    const headers = recordOf(value['headers'], 'headers');
    const config = { ...extra, url, ...(headers === undefined ? {} : { headers }) } as ServerConfig;
    return { ok: true, config, transport, disabled };
  }
  if (url !== undefined) problem('a stdio server takes a command, not a url');
  const program = stringOf(command, 'command');
  if (program === undefined) problem('it has neither a command nor a url');
  const args = stringsOf(value['args'], 'args');
  const env = recordOf(value['env'], 'env');
  const cwd = stringOf(value['cwd'], 'cwd');
  const config = {
    ...extra,
    command: program,
    ...(args === undefined ? {} : { args }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
  } as ServerConfig;
  return { ok: true, config, transport, disabled };
}
