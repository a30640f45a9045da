/**
 * The child's environment: an allow-list of the parent's variables (enough to find programs, locate the
 * home directory, pick a locale and a temp dir) plus what the config names. Never the whole parent
 * environment, so unrelated secrets (cloud keys, tokens) do not leak into every server we start.
 * Names and values are checked once more here, the last step before a process gets them (the rule is
 * `internal/env-names.ts`, which config applies first): a name with `=` would set another variable, and a
 * NUL would make Node's spawn throw with the value in its message.
 */
import { McpError } from '../../errors/index.js';
import { envNameProblem, envValueProblem } from '../../internal/env-names.js';

const POSIX_ALLOWED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
] as const;

/** Windows needs these for programs (and cmd.exe shims) to start at all. */
const WINDOWS_EXTRA = [
  'SYSTEMROOT',
  'SystemDrive',
  'PATHEXT',
  'COMSPEC',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'PROGRAMFILES',
  'ProgramData',
  'WINDIR',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
] as const;

/**
 * Builds the child environment. Pure: `parentEnv` is usually `process.env`. On Windows, names compare
 * case-insensitively (the parent may spell it `Path`), the parent's spelling is kept, and an `extra`
 * variable replaces a parent one of the same name in any case.
 */
export function buildChildEnv(
  parentEnv: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>>,
  platform: NodeJS.Platform,
): Record<string, string> {
  const windows = platform === 'win32';
  const allowed = windows ? [...POSIX_ALLOWED, ...WINDOWS_EXTRA] : [...POSIX_ALLOWED];
  const fold = (name: string): string => (windows ? name.toUpperCase() : name);
  const allowedSet = new Set(allowed.map(fold));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && allowedSet.has(fold(name))) out[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    // normalizeConfig refused these already; a caller that skipped it gets the same error, without values.
    const nameProblem = envNameProblem(name);
    if (nameProblem !== undefined) throw new McpError('config', `invalid server config: ${nameProblem}`);
    const valueProblem = typeof value === 'string' ? envValueProblem(value) : 'is not a string';
    if (valueProblem !== undefined) {
      throw new McpError(
        'config',
        `invalid server config: the value of env variable ${JSON.stringify(name.slice(0, 64))} ${valueProblem}`,
      );
    }
    if (windows) {
      for (const existing of Object.keys(out)) if (fold(existing) === fold(name)) delete out[existing];
    }
    // Defined, not assigned: a variable named `__proto__` must stay a variable.
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Case-insensitive lookup on Windows, exact elsewhere. */
export function getEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== 'win32') return env[name];
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper) return value;
  return undefined;
}
