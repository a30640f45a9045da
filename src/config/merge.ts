/**
 * Merges an override (a partial config from `autos-mcp/settings`, or flags) over a default config, by the
 * field table's `merge` rule: the override's value wins, except that `by-name` fields (`env`, `envFrom`,
 * `headers`) merge one level deep. An override that names the other transport (`url` over a `command`
 * default, or the reverse) drops the default's fields of that transport. The result is not checked here:
 * `normalizeConfig` judges it where it is used.
 */
import { type FieldKind, fieldRule, TRANSPORT_FIELD } from './fields.js';
import type { PartialServerConfig } from './normalize.js';
import type { ServerConfig } from './server-config.js';

export function mergeConfig(base: ServerConfig, override: Readonly<Record<string, unknown>>): ServerConfig;
export function mergeConfig(
  base: PartialServerConfig,
  override: Readonly<Record<string, unknown>>,
): PartialServerConfig;
export function mergeConfig(
  base: ServerConfig | PartialServerConfig,
  override: Readonly<Record<string, unknown>>,
): ServerConfig | PartialServerConfig {
  const dropped = switchedFrom(base, override);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) {
    if (dropped === undefined || fieldRule(key)?.kind !== dropped) define(out, key, value);
  }
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const current = out[key];
    define(
      out,
      key,
      fieldRule(key)?.merge === 'by-name' && isObject(current) && isObject(value)
        ? { ...current, ...value }
        : value,
    );
  }
  return out;
}

/** The transport whose fields the default loses: the override names the other one. */
function switchedFrom(base: object, override: Readonly<Record<string, unknown>>): FieldKind | undefined {
  if (Object.hasOwn(override, TRANSPORT_FIELD.http) && Object.hasOwn(base, TRANSPORT_FIELD.stdio))
    return 'stdio';
  if (Object.hasOwn(override, TRANSPORT_FIELD.stdio) && Object.hasOwn(base, TRANSPORT_FIELD.http))
    return 'http';
  return undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Defined, not assigned: a key `__proto__` stays a key. */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
