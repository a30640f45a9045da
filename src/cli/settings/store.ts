/**
 * The settings backend a command line chose: the OS credential store (`autos-mcp/settings`) by default,
 * the plaintext file only when asked for by name (`--plaintext-file`, or `AUTOS_MCP_SETTINGS_BACKEND`, with
 * `AUTOS_MCP_SETTINGS_DIR` for its directory). The settings module is loaded with a dynamic import, and
 * only by the commands that use settings, so a plain `tools`/`call` never loads it.
 */
import { join, resolve } from 'node:path';
import { McpError } from '../../client/index.js';
import type { Settings, SettingsBackend } from '../../settings/settings.js';
import { configDir } from '../../store/paths.js';
import { safeText } from '../format.js';
import type { CliIo } from '../io.js';

/** Chooses the backend: `keyring` (default), `plaintext-file` or `memory` (tests). */
export const SETTINGS_BACKEND_ENV = 'AUTOS_MCP_SETTINGS_BACKEND';
/** The directory of the plaintext file backend (`<dir>/settings.json`). */
export const SETTINGS_DIR_ENV = 'AUTOS_MCP_SETTINGS_DIR';

type SettingsModule = typeof import('../../settings/settings.js');
let loaded: Promise<SettingsModule> | undefined;
function loadSettings(): Promise<SettingsModule> {
  loaded ??= import('../../settings/settings.js');
  return loaded;
}

const BACKENDS: readonly SettingsBackend[] = ['keyring', 'plaintext-file', 'memory'];
/** A settings name: 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit. */
export const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface OpenedSettings {
  readonly settings: Settings;
  /** Where they live, for messages: never a value. */
  readonly where: string;
}

/** The settings backend this command line chose, opened (nothing is read yet). */
export async function openCliSettings(
  parsed: { readonly plaintextFile?: boolean; readonly timeoutMs: number | undefined },
  io: CliIo,
): Promise<OpenedSettings> {
  const fromEnv = process.env[SETTINGS_BACKEND_ENV];
  let backend: SettingsBackend = 'keyring';
  if (parsed.plaintextFile) backend = 'plaintext-file';
  else if (fromEnv !== undefined && fromEnv !== '') {
    if (!(BACKENDS as readonly string[]).includes(fromEnv))
      throw new McpError(
        'config',
        `${SETTINGS_BACKEND_ENV} must be keyring, plaintext-file or memory (got ${JSON.stringify(safeText(fromEnv.slice(0, 40)))})`,
      );
    backend = fromEnv as SettingsBackend;
  }
  const dirEnv = process.env[SETTINGS_DIR_ENV];
  const dir = resolve(dirEnv !== undefined && dirEnv !== '' ? dirEnv : configDir());
  const { openSettings } = await loadSettings();
  const timeout = parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs };
  if (backend === 'plaintext-file') {
    const where = `the plaintext file ${join(dir, 'settings.json')}`;
    io.stderr.write(`note: settings are kept in ${where} (0600), not in the OS credential store\n`);
    return { settings: openSettings({ backend, dir }), where };
  }
  if (backend === 'memory')
    return { settings: openSettings({ backend }), where: 'memory (this process only)' };
  return {
    settings: openSettings({ backend, ...timeout }),
    where: 'the OS credential store (service autos-mcp/settings)',
  };
}
