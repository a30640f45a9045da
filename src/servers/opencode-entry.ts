/**
 * One entry of OpenCode's `mcp` object mapped to a server config: `type: "local"` with `command` as an
 * array (the program, then its arguments) and `environment`; `type: "remote"` with `url` and `headers`;
 * `enabled: false`. Its `{env:VAR}` placeholders are read at connect like `${VAR}`.
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

export function mapOpencodeEntry(value: unknown): Mapped {
  try {
    return mapObject(value);
  } catch (error) {
    if (error instanceof EntryProblem) return { ok: false, message: error.message };
    throw error;
  }
}

function mapObject(value: unknown): Mapped {
  if (!isRecord(value)) return problem(`the entry must be an object (got ${typeOf(value)})`);
  const disabled = value['enabled'] === false;
  const type = value['type'] ?? (value['url'] !== undefined ? 'remote' : 'local');
  if (type === 'remote') {
    const url = stringOf(value['url'], 'url');
    if (url === undefined) problem('a remote server needs a url');
    const headers = recordOf(value['headers'], 'headers');
    const config = { url, ...(headers === undefined ? {} : { headers }) } as ServerConfig;
    return { ok: true, config, transport: 'http', disabled };
  }
  if (type !== 'local') problem('type must be "local" or "remote"');
  const line = stringsOf(value['command'], 'command');
  const [command, ...args] = line ?? [];
  if (command === undefined || command === '')
    problem('a local server needs command: an array with the program first, then its arguments');
  const env = recordOf(value['environment'], 'environment');
  const cwd = stringOf(value['cwd'], 'cwd');
  const config = {
    command,
    ...(args.length > 0 ? { args } : {}),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
  } as ServerConfig;
  return { ok: true, config, transport: 'stdio', disabled };
}
