/**
 * `autos-mcp settings set|get|list|rm`, and `--settings <name>` as the target (or the secrets) of `tools`,
 * `call` and `discover`. Settings live in the OS credential store by default (`autos-mcp/settings`); the
 * plaintext file backend only when asked for by name (`--plaintext-file`, or the environment variable
 * `AUTOS_MCP_SETTINGS_BACKEND`, with `AUTOS_MCP_SETTINGS_DIR` for its directory). The settings module is
 * loaded with a dynamic import, and only by these commands, so a plain `tools`/`call` never loads it.
 *
 * Secret values (`env` values, `headers` values, `authToken`) never come from the command line: `set`
 * reads them from stdin (one line each, in the order the options were given) or from a hidden prompt on a
 * terminal, and `get` masks them unless `--reveal`. No message ever shows one.
 */
import { join, resolve } from 'node:path';
import { McpError, type ServerConfig } from '../client/index.js';
import { mergeConfig } from '../session/merge.js';
import type { PartialServerConfig, Settings, SettingsBackend } from '../settings/settings.js';
import { configDir } from '../store/paths.js';
import { type ParsedArgs, type SecretItem, targetConfig, targetUrl, UsageError } from './args.js';
import { safeText } from './format.js';
import type { CliIo } from './main.js';

/** Chooses the backend: `keyring` (default), `plaintext-file` or `memory` (tests). */
export const SETTINGS_BACKEND_ENV = 'AUTOS_MCP_SETTINGS_BACKEND';
/** The directory of the plaintext file backend (`<dir>/settings.json`). */
export const SETTINGS_DIR_ENV = 'AUTOS_MCP_SETTINGS_DIR';
/** Exit code of a secret prompt ended with Ctrl-C (or SIGINT): nothing was saved. */
export const CANCELLED_EXIT = 130;

/** The stdin the CLI reads secrets from: a pipe, a file, or a terminal (raw mode for a hidden prompt). */
export interface SecretInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  resume(): unknown;
  pause(): unknown;
  /** A pipe's (a socket's): lets the process end while the writer keeps it open after the lines wanted. */
  unref?(): unknown;
}

type SettingsModule = typeof import('../settings/settings.js');
let loaded: Promise<SettingsModule> | undefined;
function loadSettings(): Promise<SettingsModule> {
  loaded ??= import('../settings/settings.js');
  return loaded;
}

const BACKENDS: readonly SettingsBackend[] = ['keyring', 'plaintext-file', 'memory'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Most bytes read from stdin for `set` (the values, or the `--json-config` document). */
const MAX_STDIN_CHARS = 1024 * 1024;

interface OpenedSettings {
  readonly settings: Settings;
  /** Where they live, for messages: never a value. */
  readonly where: string;
}

/** The settings backend this command line chose, opened (nothing is read yet). */
async function openCliSettings(parsed: ParsedArgs, io: CliIo): Promise<OpenedSettings> {
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

function checkName(name: string | undefined, sub: string): string {
  if (name === undefined) throw new UsageError(`settings ${sub} needs a name`);
  if (!NAME.test(name))
    throw new UsageError(
      'a settings name is 1-64 characters of A-Z a-z 0-9 . _ - and starts with a letter or digit',
    );
  return name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `•••• (40 chars)`: a secret's length, never its value. */
export function masked(value: unknown): string {
  return typeof value === 'string' ? `•••• (${[...value].length} chars)` : '••••';
}

/** A copy of `config` with every secret masked: `env` and `headers` values, `authToken`, a proxy password. */
export function maskConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    let shown: unknown = value;
    if ((key === 'env' || key === 'headers') && isRecord(value))
      shown = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
    else if (key === 'authToken') shown = masked(value);
    else if (key === 'proxy' && typeof value === 'string') shown = maskedProxy(value);
    Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function maskedProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.password === '') return proxy;
    url.password = 'xxxx';
    return url.href.replace(':xxxx@', ':••••@');
  } catch {
    return masked(proxy);
  }
}

/** The config as indented lines (values already masked, or revealed on request). */
function configLines(config: Readonly<Record<string, unknown>>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if ((key === 'env' || key === 'headers') && isRecord(value)) {
      lines.push(`  ${key}:`);
      const separator = key === 'env' ? '=' : ': ';
      for (const [k, v] of Object.entries(value))
        lines.push(
          `    ${safeText(k)}${separator}${safeText(typeof v === 'string' ? v : JSON.stringify(v))}`,
        );
    } else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      lines.push(`  ${key}: ${safeText(String(text))}`);
    }
  }
  if (lines.length === 0) lines.push('  (empty)');
  return lines;
}

/** What `set` saved, for its one line: field names, env keys and header names, never a value. */
function savedFields(config: Readonly<Record<string, unknown>>): string {
  return Object.entries(config)
    .map(([key, value]) =>
      (key === 'env' || key === 'headers') && isRecord(value)
        ? `${key} ${Object.keys(value).map(safeText).join(', ')}`
        : key,
    )
    .join('; ');
}

export async function settingsCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, name, extra] = parsed.positionals;
  if (parsed.settingsName !== undefined)
    throw new UsageError('--settings is an option of tools, call and discover');
  if (parsed.protocol !== undefined) throw new UsageError('--protocol is not an option of settings');
  if (parsed.serverCommand !== undefined && (sub === 'get' || sub === 'list' || sub === 'rm'))
    throw new UsageError(`settings ${sub} takes nothing after --`);
  if (sub === 'get' || sub === 'list' || sub === 'rm') {
    const misplaced = [
      ...parsed.settingsOptions.filter((o) => o !== '--reveal'),
      ...parsed.secretItems.map((i) => (i.kind === 'authToken' ? '--auth-token' : `--${i.kind}`)),
      ...(parsed.cwd !== undefined ? ['--cwd'] : []),
    ][0];
    if (misplaced !== undefined) throw new UsageError(`${misplaced} is an option of settings set`);
  }
  if (sub !== 'get' && parsed.reveal) throw new UsageError('--reveal is an option of settings get');
  switch (sub) {
    case 'set':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return setCommand(parsed, checkName(name, 'set'), io);
    case 'get':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return getCommand(parsed, checkName(name, 'get'), io);
    case 'list':
      if (name !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(name))}`);
      return listCommand(parsed, io);
    case 'rm':
      if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(safeText(extra))}`);
      return rmCommand(parsed, checkName(name, 'rm'), io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'settings needs a subcommand: set, get, list or rm'
          : `unknown settings subcommand ${JSON.stringify(safeText(sub.slice(0, 40)))}`,
      );
  }
}

/** The non-secret fields given as options: `--command`/`--arg` (or `-- command args…`), `--url`, `--cwd`. */
function fieldsFromOptions(parsed: ParsedArgs): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (parsed.serverCommand !== undefined) {
    if (parsed.setCommand !== undefined || parsed.setArgs !== undefined)
      throw new UsageError('give the server command with --command/--arg or after --, not both');
    const [command, ...args] = parsed.serverCommand;
    if (command === undefined) throw new UsageError('nothing after --: give the server command');
    fields['command'] = command;
    fields['args'] = args;
  }
  if (parsed.setCommand !== undefined) fields['command'] = parsed.setCommand;
  if (parsed.setArgs !== undefined) fields['args'] = parsed.setArgs;
  if (parsed.setUrl !== undefined) fields['url'] = parsed.setUrl;
  if (parsed.cwd !== undefined) fields['cwd'] = parsed.cwd;
  return fields;
}

function itemLabel(item: SecretItem): string {
  if (item.kind === 'authToken') return 'the auth token (--auth-token)';
  return item.kind === 'env' ? `env ${safeText(item.name)}` : `header ${safeText(item.name)}`;
}

async function setCommand(parsed: ParsedArgs, name: string, io: CliIo): Promise<number> {
  const items = parsed.secretItems;
  const stdin = io.stdin ?? (process.stdin as unknown as SecretInput);
  if (parsed.jsonConfig && items.length > 0)
    throw new UsageError(
      '--json-config reads the whole config from stdin: give the secrets in it, not with --env/--header/--auth-token',
    );
  if (parsed.jsonConfig && stdin.isTTY === true)
    throw new UsageError(
      '--json-config reads the JSON from stdin: pipe it in (… < config.json), it is not typed at a terminal',
    );
  const fields = fieldsFromOptions(parsed);
  if (!parsed.jsonConfig && items.length === 0 && Object.keys(fields).length === 0)
    throw new UsageError(
      'nothing to save: give --env KEY, --header NAME, --auth-token, --command, --url… or --json-config',
    );
  const seen = new Set<string>();
  for (const item of items) {
    const key = item.kind === 'authToken' ? 'authToken' : `${item.kind} ${item.name}`;
    if (seen.has(key)) throw new UsageError(`${itemLabel(item)} is given twice`);
    seen.add(key);
  }

  const { settings, where } = await openCliSettings(parsed, io);
  // Read before any prompt: a store that is not there (or corrupt settings) fails before secrets are typed.
  let existing: PartialServerConfig | null = null;
  if (parsed.replace) await settings.list();
  else existing = await settings.load(name, true);

  let partial: Record<string, unknown> = {};
  if (parsed.jsonConfig) {
    const text = await readAll(stdin);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new McpError('config', '--json-config: stdin is not valid JSON');
    }
    if (!isRecord(value)) throw new McpError('config', '--json-config: stdin must hold a JSON object');
    partial = value;
  } else if (items.length > 0) {
    const values =
      stdin.isTTY === true ? await promptAll(stdin, io, items) : await readLines(stdin, items.length, items);
    const env: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (const [index, item] of items.entries()) {
      const value = values[index] ?? '';
      if (value === '') throw new UsageError(`the value of ${itemLabel(item)} is empty: nothing was saved`);
      if (item.kind === 'authToken') partial['authToken'] = value;
      else if (item.kind === 'env')
        Object.defineProperty(env, item.name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else
        Object.defineProperty(headers, item.name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    if (Object.keys(env).length > 0) partial['env'] = env;
    if (Object.keys(headers).length > 0) partial['headers'] = headers;
  }
  partial = mergeConfig(partial as unknown as ServerConfig, fields) as unknown as Record<string, unknown>;
  const config: PartialServerConfig =
    existing === null
      ? partial
      : (mergeConfig(existing as unknown as ServerConfig, partial) as unknown as PartialServerConfig);
  await settings.save(name, config);

  if (parsed.json) {
    io.stdout.write(`${JSON.stringify({ name, saved: true, store: where, config: maskConfig(config) })}\n`);
    return 0;
  }
  const how = existing === null ? 'Saved' : 'Updated';
  io.stdout.write(`${how} settings "${name}" in ${where}: ${savedFields(config)}\n`);
  return 0;
}

async function getCommand(parsed: ParsedArgs, name: string, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const config = (await settings.load(name)) ?? {};
  const shown = parsed.reveal ? config : maskConfig(config);
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(shown)}\n`);
    return 0;
  }
  io.stdout.write(`settings "${name}" (${where}):\n${configLines(shown).join('\n')}\n`);
  return 0;
}

async function listCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const names = await settings.list();
  if (parsed.json) io.stdout.write(`${JSON.stringify({ store: where, names })}\n`);
  else if (names.length === 0) io.stdout.write(`No saved settings (${where})\n`);
  else io.stdout.write(`${names.map(safeText).join('\n')}\n`);
  return 0;
}

async function rmCommand(parsed: ParsedArgs, name: string, io: CliIo): Promise<number> {
  const { settings, where } = await openCliSettings(parsed, io);
  const removed = await settings.remove(name);
  if (parsed.json) io.stdout.write(`${JSON.stringify({ name, removed })}\n`);
  else
    io.stdout.write(
      removed
        ? `Removed settings "${name}" from ${where}\n`
        : `No settings named "${name}" in ${where}: nothing was removed\n`,
    );
  return 0;
}

/**
 * The config of a `tools`/`call`/`discover` target, with `--settings <name>`: the saved settings alone
 * (they then hold a `command` or a `url`), or merged over a URL / `--` command target or a `configured`
 * server (the target gives the server, the settings the secrets). `--timeout`, `--protocol`, `--env`, `--header` and `--cwd` given
 * on the command line win over both. The `Settings` are returned too, for `envFrom`.
 */
export async function targetWithSettings(
  parsed: ParsedArgs,
  io: CliIo,
  configured?: ServerConfig,
): Promise<{ config: ServerConfig; settings?: Settings }> {
  if (parsed.settingsName === undefined) {
    if (parsed.plaintextFile)
      throw new UsageError('--plaintext-file goes with --settings <name> (or settings …)');
    return { config: configured ?? targetConfig(parsed) };
  }
  const name = parsed.settingsName;
  if (!NAME.test(name))
    throw new UsageError(
      '--settings needs a settings name (A-Z a-z 0-9 . _ -, starting with a letter or digit)',
    );
  const hasTarget =
    configured !== undefined || parsed.serverCommand !== undefined || targetUrl(parsed) !== undefined;
  // The target is checked (and taken out of the positionals) before the store is touched; a configured
  // server (autos-mcp/servers) is a target too.
  const target = hasTarget ? (configured ?? targetConfig(parsed)) : undefined;
  const { settings } = await openCliSettings(parsed, io);
  const saved = (await settings.load(name)) ?? {};
  let config: ServerConfig;
  if (target !== undefined) config = mergeConfig(target, saved);
  else {
    if (typeof saved['command'] !== 'string' && typeof saved['url'] !== 'string')
      throw new McpError(
        'config',
        `the settings "${name}" hold no command or url: give a target (a URL, or -- command …), or save one (autos-mcp settings set ${name} --command … or --url …)`,
      );
    config = saved as unknown as ServerConfig;
    const token = process.env['AUTOS_MCP_TOKEN'];
    if ('url' in config && token && config.authToken === undefined) config = { ...config, authToken: token };
  }
  const flags: Record<string, unknown> = {};
  if (parsed.timeoutMs !== undefined) flags['timeoutMs'] = parsed.timeoutMs;
  if (parsed.protocol !== undefined) flags['protocolVersion'] = parsed.protocol;
  if ('url' in config) {
    if (Object.keys(parsed.headers).length > 0) flags['headers'] = parsed.headers;
  } else {
    if (Object.keys(parsed.env).length > 0) flags['env'] = parsed.env;
    if (parsed.cwd !== undefined) flags['cwd'] = parsed.cwd;
  }
  return { config: mergeConfig(config, flags), settings };
}

/** Reads stdin to its end (bounded). */
function readAll(stdin: SecretInput): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = '';
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      if (error) reject(error);
      else resolveText(text);
    };
    const onData = (chunk: string) => {
      text += chunk;
      if (text.length > MAX_STDIN_CHARS)
        done(
          new McpError('too_large', `stdin holds more than ${MAX_STDIN_CHARS / 1024} KiB: nothing was saved`),
        );
    };
    const onEnd = () => done();
    const onError = (error: Error) =>
      done(new McpError('config', `stdin could not be read (${error.message})`));
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}

/** The first `count` lines of stdin (without their line ends); stops reading once it has them. */
function readLines(stdin: SecretInput, count: number, items: readonly SecretItem[]): Promise<string[]> {
  return new Promise((resolveLines, reject) => {
    let buffered = '';
    const lines: string[] = [];
    let finished = false;
    const done = (error?: Error) => {
      if (finished) return;
      finished = true;
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      stdin.unref?.();
      if (error) reject(error);
      else resolveLines(lines);
    };
    const take = () => {
      for (
        let newline = buffered.indexOf('\n');
        newline >= 0 && lines.length < count;
        newline = buffered.indexOf('\n')
      ) {
        lines.push(buffered.slice(0, newline).replace(/\r$/, ''));
        buffered = buffered.slice(newline + 1);
      }
      if (lines.length >= count) done();
    };
    const onData = (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_STDIN_CHARS)
        return done(
          new McpError(
            'too_large',
            `a line of stdin is over ${MAX_STDIN_CHARS / 1024} KiB: nothing was saved`,
          ),
        );
      take();
    };
    const onEnd = () => {
      if (buffered !== '' && lines.length < count) lines.push(buffered.replace(/\r$/, ''));
      if (lines.length < count) {
        const missing = items.slice(lines.length).map(itemLabel).join(', ');
        return done(
          new UsageError(
            `stdin ended after ${lines.length} line${lines.length === 1 ? '' : 's'}; want one line per value, in order (missing: ${missing}): nothing was saved`,
          ),
        );
      }
      done();
    };
    const onError = (error: Error) =>
      done(new McpError('config', `stdin could not be read (${error.message})`));
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}

/** Ctrl-C at a prompt: nothing is saved. */
class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
}

async function promptAll(stdin: SecretInput, io: CliIo, items: readonly SecretItem[]): Promise<string[]> {
  const values: string[] = [];
  for (const item of items)
    values.push(await promptHidden(stdin, io, `Value of ${itemLabel(item)} (input hidden): `));
  return values;
}

/**
 * One hidden line from a terminal: raw mode, nothing echoed (not even `*`), Backspace and Ctrl-U edit,
 * escape sequences (arrows, bracketed paste markers) are skipped, Enter ends it, Ctrl-C cancels. The
 * terminal is restored on every way out: Enter, Ctrl-C, SIGINT/SIGTERM from outside, process exit.
 */
export function promptHidden(stdin: SecretInput, io: CliIo, label: string): Promise<string> {
  const setRaw = stdin.setRawMode;
  if (typeof setRaw !== 'function')
    return Promise.reject(
      new McpError('config', 'stdin is a terminal without raw mode: pipe the values in instead'),
    );
  return new Promise((resolveValue, reject) => {
    let value = '';
    /** 0: text; 1: after ESC; 2: inside a CSI sequence (ESC [ … final byte). */
    let inEscape = 0;
    let restored = false;
    const restore = () => {
      if (restored) return;
      restored = true;
      try {
        setRaw.call(stdin, false);
      } catch {
        // the terminal is gone
      }
      stdin.off('data', onData);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', restore);
      stdin.pause();
    };
    const onSignal = (signal: NodeJS.Signals) => {
      restore();
      io.stderr.write('\ncancelled: nothing was saved\n');
      process.exit(signal === 'SIGINT' ? CANCELLED_EXIT : 143);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (inEscape === 1) {
          inEscape = ch === '[' ? 2 : 0;
          continue;
        }
        if (inEscape === 2) {
          if (ch >= '@' && ch <= '~') inEscape = 0;
          continue;
        }
        if (ch === '\r' || ch === '\n') {
          restore();
          io.stderr.write('\n');
          resolveValue(value);
          return;
        }
        if (ch === '\x03') {
          restore();
          io.stderr.write('\n');
          reject(new PromptCancelled('cancelled at the prompt'));
          return;
        }
        if (ch === '\x04') {
          restore();
          io.stderr.write('\n');
          resolveValue(value);
          return;
        }
        if (ch === '\x7f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch === '\x15') value = '';
        else if (ch === '\x1b') inEscape = 1;
        else if (ch >= ' ' && ch !== '\x7f') value += ch;
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('exit', restore);
    // Echo is off before the prompt shows: what is typed once it is there is never echoed.
    setRaw.call(stdin, true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    io.stderr.write(label);
  });
}

/** `set` with a prompt cancelled by Ctrl-C: the exit code, or undefined for any other error. */
export function cancelledExit(error: unknown, io: CliIo): number | undefined {
  if (!(error instanceof PromptCancelled)) return undefined;
  io.stderr.write('cancelled: nothing was saved\n');
  return CANCELLED_EXIT;
}
