/**
 * `envFrom` of a stdio config: where a variable's value comes from, resolved only just before the server
 * is spawned, so a secret never sits in the config itself: `{ setting: 'name', key: 'KEY' }` (a value kept
 * in `autos-mcp/settings`) or `{ env: 'PARENT_VAR' }` (this process's environment). Validation here is pure.
 */
import { McpError } from '../errors/index.js';
import { pathKey } from './plain-data.js';

export type EnvSource = { readonly setting: string; readonly key: string } | { readonly env: string };

const SETTING_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV_NAME = /^[^=\0]{1,256}$/;

function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

export function envFromOf(
  value: unknown,
  env: Readonly<Record<string, string>>,
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
