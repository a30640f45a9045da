/**
 * Resolves a stdio config's `envFrom` just before the server is spawned: each variable from a value in
 * `autos-mcp/settings` (an `env` entry of the named settings, else a string field such as `authToken`)
 * or from this process's environment. A missing source is a `config` error naming the variable and the
 * source, never a value. Settings are loaded once per name per spawn.
 */
import type { EnvSource } from '../config/env-from.js';
import { McpError } from '../errors/index.js';
import { openSettings, type PartialServerConfig, type Settings } from './settings.js';

export async function resolveEnvFrom(
  envFrom: Readonly<Record<string, EnvSource>>,
  settings: Settings | undefined,
): Promise<Record<string, string>> {
  const loaded = new Map<string, Promise<PartialServerConfig | null>>();
  let opened = settings;
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries(envFrom)) {
    let value: string | undefined;
    if ('env' in source) {
      value = process.env[source.env];
      if (value === undefined)
        throw new McpError(
          'config',
          `envFrom ${JSON.stringify(name)}: this process has no environment variable ${JSON.stringify(source.env)}`,
        );
    } else {
      opened ??= openSettings();
      const store = opened;
      let config = loaded.get(source.setting);
      if (config === undefined) {
        config = store.load(source.setting, true);
        loaded.set(source.setting, config);
      }
      const found = await config;
      if (found === null)
        throw new McpError(
          'config',
          `envFrom ${JSON.stringify(name)}: no settings named ${JSON.stringify(source.setting)} in ${store.description}`,
        );
      const env = found['env'];
      const fromEnv =
        typeof env === 'object' && env !== null ? (env as Record<string, unknown>)[source.key] : undefined;
      const direct = found[source.key];
      value = typeof fromEnv === 'string' ? fromEnv : typeof direct === 'string' ? direct : undefined;
      if (value === undefined)
        throw new McpError(
          'config',
          `envFrom ${JSON.stringify(name)}: the settings ${JSON.stringify(source.setting)} have no ${JSON.stringify(source.key)}`,
        );
    }
    if (value.includes('\0'))
      throw new McpError(
        'config',
        `envFrom ${JSON.stringify(name)}: the value holds a NUL byte and cannot be passed to a process`,
      );
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
