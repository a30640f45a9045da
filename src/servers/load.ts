/**
 * `loadServers`: every known config file read (bounded), parsed by its client's rules, each entry mapped to
 * a server config with its placeholders kept; the first definition of a name wins and the rest are
 * reported as shadowed. A file or an entry that cannot be used is a problem, and the others still load.
 * Reads files only: starts nothing, resolves no placeholder, writes nothing.
 */
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import type { ServerConfig } from '../config/index.js';
import {
  isProtocolVersionChoice,
  LEGACY_VERSION,
  MODERN_VERSION,
  type ProtocolVersionChoice,
} from '../protocol/versions.js';
import { mapCodexEntry } from './codex-entry.js';
import { isRecord, type Mapped, mapEntry } from './entry.js';
import { nameProblem, shownName } from './names.js';
import { mapOpencodeEntry } from './opencode-entry.js';
import { type Parsed, parseJson } from './parse-json.js';
import { parseToml } from './parse-toml.js';
import { pinsOfServers } from './pins.js';
import { scanText } from './placeholders.js';
import { MAX_CLAUDE_USER_BYTES, MAX_CONFIG_BYTES, readConfigFile } from './read-file.js';
import { absolute, formatOfFile, projectDirs, projectSources, type Source, userSources } from './sources.js';
import { trustReader } from './trust.js';
import type {
  ConfigFile,
  ConfigFormat,
  ConfiguredServer,
  FileTrust,
  LoadedServers,
  LoadServersOptions,
  ServerOrigin,
  ServerProblem,
  ShadowedServer,
} from './types.js';

/** Most entries read from one file; past it, a problem and the rest are left out. */
export const MAX_ENTRIES_PER_FILE = 1000;

/** Formats whose clients accept comments and trailing commas. */
const LENIENT: ReadonlySet<ConfigFormat> = new Set(['autos-mcp', 'cursor', 'vscode', 'opencode']);

/** One entry found in a file, before mapping. */
interface Found {
  readonly name: string;
  readonly value: unknown;
  readonly section?: string;
  readonly project?: string;
}

/**
 * Reads the configured MCP servers: the project's files (in `cwd`, then each parent up to its git root),
 * then the user's, of autos-mcp and of Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Codex and
 * OpenCode (see docs/servers.md). Never throws for a file's content; its problems are returned.
 */
export async function loadServers(options: LoadServersOptions = {}): Promise<LoadedServers> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const home = options.home ?? homedir();
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const users = userSources({ home, env, platform });
  const userFiles = new Set(users.map((source) => source.file));
  const dirs = projectDirs(cwd, home);
  const sources =
    options.only === undefined
      ? [...projectSources(dirs).filter((source) => !userFiles.has(source.file)), ...users]
      : (typeof options.only === 'string' ? [options.only] : [...options.only]).map((file) =>
          sourceOf(absolute(file, cwd), users),
        );
  const trust = trustReader({ home, env, platform });
  const servers: Record<string, ConfiguredServer & { shadowed?: ServerOrigin[] }> = {};
  const shadowed: ShadowedServer[] = [];
  const problems: ServerProblem[] = [];
  const files: ConfigFile[] = [];
  for (const source of sources) {
    const maxBytes = basename(source.file) === '.claude.json' ? MAX_CLAUDE_USER_BYTES : MAX_CONFIG_BYTES;
    const read = await readConfigFile(source.file, maxBytes);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      problems.push({ file: source.file, message: `the file ${read.message}` });
      continue;
    }
    const parsed = await parse(read.text, source.format);
    if (!parsed.ok) {
      problems.push({
        file: source.file,
        ...(parsed.line === undefined ? {} : { line: parsed.line }),
        message: `the file ${parsed.message}`,
      });
      continue;
    }
    const found = entriesOf(parsed.value, source, dirs, problems);
    const fileTrust: FileTrust =
      source.scope === 'user' ? 'user' : trustOf(await trust.digest(source.file), read.sha256);
    let count = 0;
    for (const entry of found) {
      const server = serverOf(entry, source, fileTrust, problems);
      if (server === undefined) continue;
      count++;
      const winner = servers[entry.name];
      if (winner === undefined) {
        Object.defineProperty(servers, entry.name, {
          value: server,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        continue;
      }
      winner.shadowed = [...(winner.shadowed ?? []), server.origin];
      shadowed.push({ name: entry.name, origin: server.origin, scope: server.scope, by: winner.origin });
    }
    files.push({
      file: source.file,
      format: source.format,
      scope: source.scope,
      trust: fileTrust,
      sha256: read.sha256,
      servers: count,
    });
  }
  const trustProblem = trust.problem();
  if (trustProblem !== undefined) problems.push(trustProblem);
  // The definitions the user pinned (autos-mcp pin NAME), carried to resolveServer.
  const pinned = await pinsOfServers(Object.keys(servers), { home, env, platform });
  if ('message' in pinned) problems.push(pinned);
  for (const [name, server] of Object.entries(servers)) {
    const pins = 'pins' in pinned ? pinned.pins.get(name) : undefined;
    if (pins === undefined && !('message' in pinned)) continue;
    Object.defineProperty(servers, name, {
      value: {
        ...server,
        ...(pins === undefined ? {} : { pins }),
        ...('message' in pinned ? { pinsUnreadable: pinned.message } : {}),
      },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { servers, shadowed, problems, files };
}

/** A file named in `only`: a user file keeps its place; any other is a project file (it needs trust). */
function sourceOf(file: string, users: readonly Source[]): Source {
  const user = users.find((source) => source.file === file);
  if (user !== undefined) return user;
  const dir = dirname(file);
  const project = ['.cursor', '.vscode', '.codex'].includes(basename(dir)) ? dirname(dir) : dir;
  return { file, format: formatOfFile(file), scope: 'project', project };
}

function trustOf(trusted: string | undefined, current: string): FileTrust {
  if (trusted === undefined) return 'untrusted';
  return trusted === current ? 'trusted' : 'changed';
}

function parse(text: string, format: ConfigFormat): Promise<Parsed> {
  return format === 'codex' ? parseToml(text) : parseJson(text, { lenient: LENIENT.has(format) });
}

/** The entries of a parsed file, where its client keeps them. A file without that key defines none. */
function entriesOf(
  value: unknown,
  source: Source,
  dirs: readonly string[],
  problems: ServerProblem[],
): Found[] {
  const { file, format } = source;
  if (!isRecord(value)) {
    problems.push({ file, message: 'the file does not hold a JSON object' });
    return [];
  }
  const key =
    format === 'vscode'
      ? 'servers'
      : format === 'codex'
        ? 'mcp_servers'
        : format === 'opencode'
          ? 'mcp'
          : 'mcpServers';
  const lists: Array<{ list: unknown; section?: string; project?: string; where: string }> = [];
  // ~/.claude.json: the servers Claude Code keeps for one project (its "local" scope) come first.
  if (format === 'claude-code' && source.scope === 'user' && isRecord(value['projects'])) {
    const projects = value['projects'];
    for (const dir of dirs)
      if (Object.hasOwn(projects, dir) && isRecord(projects[dir]))
        lists.push({
          list: (projects[dir] as Record<string, unknown>)['mcpServers'],
          section: `projects[${JSON.stringify(dir)}]`,
          project: dir,
          where: `projects[…].mcpServers`,
        });
  }
  lists.push({
    list: value[key],
    ...(source.project === undefined ? {} : { project: source.project }),
    where: key,
  });
  const found: Found[] = [];
  for (const { list, section, project, where } of lists) {
    if (list === undefined) continue;
    if (!isRecord(list)) {
      problems.push({ file, message: `${where} must be an object of servers by name` });
      continue;
    }
    for (const [name, entry] of Object.entries(list)) {
      if (found.length >= MAX_ENTRIES_PER_FILE) {
        problems.push({
          file,
          message: `the file defines more than ${MAX_ENTRIES_PER_FILE} servers; the rest were not read`,
        });
        return found;
      }
      found.push({
        name,
        value: entry,
        ...(section === undefined ? {} : { section }),
        ...(project === undefined ? {} : { project }),
      });
    }
  }
  return found;
}

/** The configured server of one entry, or undefined with its problem recorded. */
function serverOf(
  entry: Found,
  source: Source,
  trust: FileTrust,
  problems: ServerProblem[],
): (ConfiguredServer & { shadowed?: ServerOrigin[] }) | undefined {
  const report = (message: string): undefined => {
    problems.push({ file: source.file, entry: shownName(entry.name), message });
    return undefined;
  };
  const badName = nameProblem(entry.name);
  if (badName !== undefined) return report(badName);
  const mapped: Mapped =
    source.format === 'codex'
      ? mapCodexEntry(entry.value)
      : source.format === 'opencode'
        ? mapOpencodeEntry(entry.value)
        : mapEntry(entry.value, source.format);
  if (!mapped.ok) return report(mapped.message);
  const protocolVersion = revisionOf(mapped.config);
  if (protocolVersion === undefined)
    return report(`protocolVersion must be "${LEGACY_VERSION}", "${MODERN_VERSION}" or "auto"`);
  const variables: string[] = [];
  for (const [field, text] of configStrings(mapped.config)) {
    const scan = scanText(text, source.format === 'opencode');
    if (scan.problem !== undefined) return report(`${field}: ${scan.problem}`);
    for (const name of scan.variables) if (!variables.includes(name)) variables.push(name);
  }
  const origin: ServerOrigin = {
    file: source.file,
    format: source.format,
    ...(entry.section === undefined ? {} : { section: entry.section }),
    ...(entry.project === undefined ? {} : { project: entry.project }),
  };
  return {
    name: entry.name,
    protocolVersion,
    config: mapped.config,
    transport: mapped.transport,
    origin,
    scope: source.scope,
    trusted: trust === 'user' || trust === 'trusted',
    trust,
    ...(mapped.disabled ? { disabled: true as const } : {}),
    variables,
  };
}

/** The revision an entry asks for (the default when it names none), or undefined for anything else. */
function revisionOf(config: ServerConfig): ProtocolVersionChoice | undefined {
  const asked: unknown = config.protocolVersion;
  if (asked === undefined) return LEGACY_VERSION;
  return isProtocolVersionChoice(asked) ? asked : undefined;
}

/** The string fields of a config that may hold placeholders, by field name. */
export function configStrings(config: ServerConfig): Array<[field: string, text: string]> {
  const out: Array<[string, string]> = [];
  const raw = new Map<string, unknown>(Object.entries(config));
  for (const field of ['command', 'cwd', 'url', 'authToken']) {
    const value = raw.get(field);
    if (typeof value === 'string') out.push([field, value]);
  }
  const args = raw.get('args');
  if (Array.isArray(args))
    args.forEach((arg: unknown, i) => {
      if (typeof arg === 'string') out.push([`args[${i}]`, arg]);
    });
  for (const field of ['env', 'headers']) {
    const record = raw.get(field);
    if (isRecord(record))
      for (const [key, value] of Object.entries(record))
        if (typeof value === 'string') out.push([`${field}.${key}`, value]);
  }
  return out;
}
