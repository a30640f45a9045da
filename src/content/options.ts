/**
 * The options of `prepare()`, checked and with their defaults: sizes are non-negative safe integers,
 * `dir` a non-empty string, unknown names refused (a typo must not silently keep the default).
 */
import { McpError } from '../errors/index.js';
import type { PrepareOptions } from './types.js';

const MiB = 1024 * 1024;

/** The options with every default filled in. */
export interface ResolvedOptions {
  dir: string | undefined;
  maxInlineBytes: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

const DEFAULTS = { maxInlineBytes: 0, maxFileBytes: 64 * MiB, maxTotalBytes: 256 * MiB } as const;
const KNOWN: ReadonlySet<string> = new Set(['dir', 'maxInlineBytes', 'maxFileBytes', 'maxTotalBytes']);

function fail(message: string): McpError {
  return new McpError('config', `content options: ${message}`);
}

function size(options: PrepareOptions, key: keyof typeof DEFAULTS): number {
  const value: unknown = options[key];
  if (value === undefined) return DEFAULTS[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw fail(`${key} must be a whole number of bytes ≥ 0`);
  return value;
}

/** Checks `options` and fills in the defaults; throws `McpError` kind `config` on a bad option. */
export function resolveOptions(options: PrepareOptions | undefined): ResolvedOptions {
  if (options === undefined) return { dir: undefined, ...DEFAULTS };
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw fail('must be an object');
  for (const key of Object.keys(options))
    if (!KNOWN.has(key)) throw fail(`unknown option ${JSON.stringify(key.slice(0, 40))}`);
  const dir: unknown = options.dir;
  if (dir !== undefined && (typeof dir !== 'string' || dir.length === 0 || dir.includes('\0')))
    throw fail('dir must be a non-empty path');
  return {
    dir,
    maxInlineBytes: size(options, 'maxInlineBytes'),
    maxFileBytes: size(options, 'maxFileBytes'),
    maxTotalBytes: size(options, 'maxTotalBytes'),
  };
}
