/**
 * Checks a stored or to-be-stored config, which may be partial (no `command` or `url`): it must be plain
 * data, every field one a server config has, and valid where present, by the same rules as
 * `normalizeConfig` (run with a stand-in `command` or `url` where the part has none). Errors name the field.
 */
import { normalizeConfig, type ServerConfig } from '../config/index.js';
import { McpError } from '../errors/index.js';

const STDIO_ONLY = new Set([
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
const HTTP_ONLY = new Set(['url', 'headers', 'authToken', 'ca', 'proxy', 'useEnvProxy']);
const STAND_IN_COMMAND = 'autos-mcp-settings-check';
const STAND_IN_URL = 'https://settings-check.invalid/mcp';

export function checkPartialConfig<T extends object>(value: T, what: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpError('config', `${what}: expected an object`);
  const keys = Object.keys(value);
  const stdio = keys.some((k) => STDIO_ONLY.has(k));
  const http = keys.some((k) => HTTP_ONLY.has(k));
  if (stdio && http)
    throw new McpError(
      'config',
      `${what}: mixes stdio fields (command, env…) with HTTP fields (url, headers…)`,
    );
  const record = value as Record<string, unknown>;
  const probe = http ? { url: STAND_IN_URL, ...record } : { command: STAND_IN_COMMAND, ...record };
  try {
    normalizeConfig(probe as ServerConfig);
  } catch (error) {
    const message = (error as Error).message.replace(/^invalid server config: /, '');
    throw new McpError('config', `${what}: ${message}`);
  }
  return structuredClone(value);
}
