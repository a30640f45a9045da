/**
 * The checks of single config fields, each pure: `undefined` means "not set" (the default, or nothing);
 * anything else is checked and returned normalized, or a `config` error names the field. Messages never
 * quote a value that may be secret (env and header values, `authToken`, URL userinfo and query, proxy
 * credentials, PEM text). `fields.ts` says which check a field has.
 */
import { McpError } from '../errors/index.js';
import { envNameProblem, envValueProblem } from '../internal/env-names.js';
import { extensionIdProblem, MAX_EXTENSIONS } from '../protocol/extension-id.js';
import { isProtocolVersionChoice, type ProtocolVersionChoice } from '../protocol/versions.js';
import { PACKAGE_VERSION } from '../version.js';
import { durationMs } from './durations.js';
import { pathKey } from './plain-data.js';
import type { ClientInfo, StderrMode } from './server-config.js';

const CLIENT_INFO_KEYS = ['name', 'version', 'title', 'description', 'websiteUrl'] as const;
/** One PEM block; `ca` strings must hold at least one. */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]{1,40})-----[\s\S]*?-----END \1-----/;
/** C0 controls and DEL; `TEXT_CONTROL` spares TAB, LF and CR (allowed in a description). */
const CONTROL = /[\u0000-\u001f\u007f]/;
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MAX_INT = 2 ** 31 - 1;
/** `graceMs` at most: ten minutes per wait. */
const MAX_GRACE_MS = 600_000;

/** Throws the `config` error every check throws. */
export function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

/** What `value` is, for a message: its type, never its content. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** A millisecond option: positive, `Infinity` allowed ("no deadline"). */
export function deadlineMs(name: string, fallback: number): (value: unknown) => number {
  return (value) => durationMs(value, name, fallback, { positive: true });
}

/** A positive integer no larger than `max`. */
export function positiveInt(name: string, fallback: number, max: number): (value: unknown) => number {
  return (value) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max)
      fail(`${name} must be a positive integer no larger than ${max}`);
    return value;
  };
}

/** Smallest `maxResultChars`: room for the marker a cut result ends with and some of the result. */
export const MIN_RESULT_CHARS = 512;

/**
 * A result budget in characters (`maxResultChars`, in a config or a call's options), or undefined: an
 * integer from 512 to 2^31 - 1. `what` names where it was given, for the message.
 */
export function resultCharsOf(value: unknown, what = 'maxResultChars'): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_RESULT_CHARS || value > MAX_INT)
    fail(`${what} must be an integer from ${MIN_RESULT_CHARS} to ${MAX_INT}`);
  return value;
}

/** A non-negative integer that fits a 32-bit signed int, or undefined. */
export function countOf(name: string): (value: unknown) => number | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_INT)
      fail(`${name} must be a non-negative integer`);
    return value;
  };
}

/** A boolean, or undefined. */
export function booleanOf(name: string): (value: unknown) => boolean | undefined {
  return (value) => {
    if (value !== undefined && typeof value !== 'boolean') fail(`${name} must be a boolean`);
    return value as boolean | undefined;
  };
}

/** An object of strings (`headers`, `env`); `{}` when absent. Keys stay keys (`__proto__` too). */
export function stringRecord(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${name} must be an object of strings (got ${typeOf(value)})`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    if (typeof item !== 'string') fail(`${name}${pathKey(key)} must be a string (got ${typeOf(item)})`);
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `env`: names without `=` or NUL and not empty, values without NUL (spawn would throw quoting them). */
export function envOf(value: unknown): Record<string, string> {
  const env = stringRecord(value, 'env');
  for (const [key, item] of Object.entries(env)) {
    const nameProblem = envNameProblem(key);
    if (nameProblem !== undefined) fail(nameProblem);
    const valueProblem = envValueProblem(item);
    if (valueProblem !== undefined) fail(`the value of env${pathKey(key)} ${valueProblem}`);
  }
  return env;
}

/** `command`: a non-empty string without NUL (required for a stdio server: `normalize.ts` says so). */
export function commandOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail('command must be a non-empty string');
  if (value.includes('\0')) fail('command contains a NUL byte');
  return value;
}

/** `args`: strings without NUL; `[]` when absent. */
export function argsOf(value: unknown): string[] {
  const args = value ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' || a.includes('\0')))
    fail('args must be an array of strings without NUL bytes');
  return [...(args as string[])];
}

/** `cwd`: a non-empty string without NUL, or undefined. */
export function cwdOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') fail('cwd must be a non-empty string');
  if (value.includes('\0')) fail('cwd contains a NUL byte');
  return value;
}

/** `stderr`: `'capture'` (default), `'inherit'` or `'ignore'`. */
export function stderrOf(value: unknown): StderrMode {
  const stderr = value ?? 'capture';
  if (stderr !== 'capture' && stderr !== 'inherit' && stderr !== 'ignore')
    fail("stderr must be 'capture', 'inherit' or 'ignore'");
  return stderr;
}

/** `graceMs`: a finite positive number of ms, at most 10 minutes; or undefined. */
export function graceMsOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const graceMs = durationMs(value, 'graceMs', 2000, { positive: true, finite: true });
  if (graceMs > MAX_GRACE_MS) fail(`graceMs must be at most ${MAX_GRACE_MS}`);
  return graceMs;
}

/** A string field whose text is checked by `check` (which throws its own `config` error). */
export function stringOf(
  name: string,
  check: (value: string) => void,
): (value: unknown) => string | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') fail(`${name} must be a string (got ${typeOf(value)})`);
    check(value);
    return value;
  };
}

export function clientInfoOf(value: unknown): ClientInfo {
  if (value === undefined) return { name: 'autos-mcp', version: PACKAGE_VERSION };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('clientInfo must be {name, version}');
  const info = value as Record<string, unknown>;
  for (const key of Object.keys(info)) {
    if (!(CLIENT_INFO_KEYS as readonly string[]).includes(key))
      fail(`clientInfo${pathKey(key)} is not a clientInfo field (${CLIENT_INFO_KEYS.join(', ')})`);
  }
  if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    fail('clientInfo needs string name and version');
  const out: ClientInfo = { name: info['name'], version: info['version'] };
  for (const key of CLIENT_INFO_KEYS) {
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

export function protocolVersionOf(value: unknown): ProtocolVersionChoice {
  if (value === undefined) return '2025-11-25';
  if (isProtocolVersionChoice(value)) return value;
  const got =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? JSON.stringify(value) : typeOf(value);
  return fail(`protocolVersion must be '2025-11-25', '2026-07-28' or 'auto' (got ${got})`);
}

/** `ca`: strings holding at least one PEM block and no private key. Messages never quote a string. */
export function caOf(value: unknown): string[] | undefined {
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

/** `extensions`: a list of extension ids (the `_meta` key rules with a prefix), at most 32, repeats once. */
export function extensionsOf(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) fail(`extensions must be an array of extension ids (got ${typeOf(value)})`);
  const ids = [...new Set<unknown>(value)];
  if (ids.length > MAX_EXTENSIONS) fail(`extensions: at most ${MAX_EXTENSIONS} (got ${ids.length})`);
  for (const id of ids) {
    const problem = extensionIdProblem(id);
    if (problem !== undefined)
      fail(`extensions: ${typeof id === 'string' ? JSON.stringify(id.slice(0, 80)) : typeOf(id)} ${problem}`);
  }
  return Object.freeze(ids as string[]);
}
