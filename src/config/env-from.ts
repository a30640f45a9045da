/**
 * `envFrom` of a stdio config: where a variable's value comes from, resolved only just before the server
 * is spawned, so a secret never sits in the config itself: `{ setting: 'name', key: 'KEY' }` (a value kept
 * in `autos-mcp/settings`) or `{ env: 'PARENT_VAR' }` (this process's environment). Validation here is pure;
 * resolving reads the settings it is handed (`SettingsReader`), so config never imports settings.
 */
import { McpError } from '../errors/index.js';
import { pathKey } from './plain-data.js';

/** Where one `envFrom` variable comes from: a value kept in `autos-mcp/settings`, or this process's environment. */
export type EnvSource = { readonly setting: string; readonly key: string } | { readonly env: string };

/** Resolves a stdio config's `envFrom` just before the spawn: the variables' values, by name. */
export type EnvFromResolver = (
  envFrom: Readonly<Record<string, EnvSource>>,
) => Promise<Record<string, string>>;

/** What resolving `{ setting, key }` sources needs of `autos-mcp/settings`' `Settings`. */
export interface SettingsReader {
  /** Where the settings live, for messages. */
  readonly description: string;
  /** The config saved as `name`, or `null`. */
  load(name: string, allowMissing: true): Promise<Readonly<Record<string, unknown>> | null>;
}

const SETTING_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV_NAME = /^[^=\0]{1,256}$/;

function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

export function envFromOf(
  value: unknown,
  env: Readonly<Record<string, unknown>>,
): Record<string, EnvSource> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('envFrom must be an object of { setting, key } or { env } sources');
  const out: Record<string, EnvSource> = {};
  for (const [name, source] of Object.entries(value as Record<string, unknown>)) {
    const at = `envFrom${pathKey(name)}`;
    if (!ENV_NAME.test(name)) fail(`${at}: a variable name is not empty and has no "=" or NUL`);
    if (Object.hasOwn(env, name)) fail(`${at}: the variable is also in env; give it in one place`);
    if (typeof source !== 'object' || source === null || Array.isArray(source))
      fail(`${at} must be { setting, key } or { env }`);
    const fields = source as Record<string, unknown>;
    const keys = Object.keys(fields).sort().join();
    let parsed: EnvSource;
    if (keys === 'key,setting') {
      if (typeof fields['setting'] !== 'string' || !SETTING_NAME.test(fields['setting']))
        fail(`${at}.setting must be a settings name (A-Z a-z 0-9 . _ -)`);
      if (typeof fields['key'] !== 'string' || fields['key'] === '' || fields['key'].length > 256)
        fail(`${at}.key must be a non-empty string`);
      parsed = { setting: fields['setting'], key: fields['key'] };
    } else if (keys === 'env') {
      if (typeof fields['env'] !== 'string' || !ENV_NAME.test(fields['env']))
        fail(`${at}.env must be a variable name`);
      parsed = { env: fields['env'] };
    } else fail(`${at} must be { setting, key } or { env }`);
    Object.defineProperty(out, name, { value: parsed, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The resolver that reads `{ setting, key }` sources from the settings `open()` gives (called only when a
 * config has such a source, once per spawn) and `{ env }` sources from `env`. Each variable is an `env`
 * entry of the named settings, else a string field such as `authToken`. A missing source is a `config`
 * error naming the variable and the source, never a value. Settings are loaded once per name per spawn.
 */
export function envFromResolver(
  open: () => SettingsReader | Promise<SettingsReader>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): EnvFromResolver {
  return async (envFrom) => {
    const loaded = new Map<string, Promise<Readonly<Record<string, unknown>> | null>>();
    let settings: Promise<SettingsReader> | undefined;
    const out: Record<string, string> = {};
    for (const [name, source] of Object.entries(envFrom)) {
      const at = `envFrom ${JSON.stringify(name)}`;
      let value: string | undefined;
      if ('env' in source) {
        value = env[source.env];
        if (value === undefined)
          throw new McpError(
            'config',
            `${at}: this process has no environment variable ${JSON.stringify(source.env)}`,
          );
      } else {
        settings ??= Promise.resolve(open());
        const store = await settings;
        let config = loaded.get(source.setting);
        if (config === undefined) {
          config = store.load(source.setting, true);
          loaded.set(source.setting, config);
        }
        const found = await config;
        if (found === null)
          throw new McpError(
            'config',
            `${at}: no settings named ${JSON.stringify(source.setting)} in ${store.description}`,
          );
        const fromEnv = found['env'];
        const inEnv =
          typeof fromEnv === 'object' && fromEnv !== null
            ? (fromEnv as Record<string, unknown>)[source.key]
            : undefined;
        const direct = found[source.key];
        value = typeof inEnv === 'string' ? inEnv : typeof direct === 'string' ? direct : undefined;
        if (value === undefined)
          throw new McpError(
            'config',
            `${at}: the settings ${JSON.stringify(source.setting)} have no ${JSON.stringify(source.key)}`,
          );
      }
      if (value.includes('\0'))
        throw new McpError('config', `${at}: the value holds a NUL byte and cannot be passed to a process`);
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
}
