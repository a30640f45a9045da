/**
 * Merges a local override (partial config from `autos-mcp/settings`) over a default config: fields of
 * the override win; `env`, `envFrom` and `headers` merge one level deep; an override that names the other
 * transport (`url` over a `command` default, or the reverse) replaces the default's transport fields.
 */
import type { ServerConfig } from '../config/index.js';

const STDIO_FIELDS = [
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
];
const HTTP_FIELDS = ['url', 'headers', 'authToken', 'ca', 'proxy', 'useEnvProxy'];
const DEEP = ['env', 'envFrom', 'headers'];

export function mergeConfig(base: ServerConfig, override: Readonly<Record<string, unknown>>): ServerConfig {
  return mergeFields({ ...base }, override) as unknown as ServerConfig;
}

/** `mergeConfig` on plain records: for partial configs (saved settings), which need no `command` or `url`. */
export function mergeFields(
  base: Readonly<Record<string, unknown>>,
  override: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  const switchesTo =
    'url' in override && 'command' in out
      ? HTTP_FIELDS
      : 'command' in override && 'url' in out
        ? STDIO_FIELDS
        : undefined;
  if (switchesTo !== undefined)
    for (const field of switchesTo === HTTP_FIELDS ? STDIO_FIELDS : HTTP_FIELDS) delete out[field];
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] =
      DEEP.includes(key) &&
      typeof current === 'object' &&
      current !== null &&
      typeof value === 'object' &&
      value !== null
        ? { ...(current as object), ...(value as object) }
        : value;
  }
  return out;
}
