/**
 * What the docs say about the code, checked against the code, so a sentence goes stale in the same commit
 * that makes it so (examples.test.ts runs the examples; this file reads the prose and the code spans):
 * - every `autos-mcp <command>` named is a command the CLI has, and every `--option` given to one is an
 *   option its parser takes;
 * - a shell block runs the command the way a project install has it (`npx autos-mcp …`): the plain
 *   `autos-mcp` is on no PATH after `npm install autos-mcp`;
 * - every function named as `name(…)` in a code span is exported by a public entry point or declared in
 *   src/ (a method, an option callback): a renamed or removed one is found;
 * - every `MAX_…` constant named is exported by a public entry point, with the value the sentence gives;
 *   the limits quoted in docs/limits.md match the constants in src/ they come from.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { allCommands } from '../../src/cli/parse.js';
import { COMMANDS as TABLE } from '../../src/cli/table.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from '../../src/client/mrtr.js';
import { MAX_ANSWERS_QUEUED } from '../../src/client/responder.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_TIMEOUT_MS,
} from '../../src/config/server-config.js';
import { MAX_GLOB_STARS, MAX_PINS, MAX_TOOL_NAME, MAX_TOOL_PATTERNS } from '../../src/config/tool-policy.js';
import { MAX_EXTENSIONS, MAX_SERVER_EXTENSIONS } from '../../src/extensions/index.js';
import { MAX_TASK_INPUTS } from '../../src/extensions/tasks/follow.js';
import {
  MAX_POLLS,
  POLL_CEILING_MS,
  POLL_DEFAULT_MS,
  POLL_FLOOR_MS,
} from '../../src/extensions/tasks/poll-delay.js';
import { MAX_STATUS_MESSAGE_CHARS, MAX_TASK_ID_CHARS } from '../../src/extensions/tasks/task-shape.js';
import { MAX_OAUTH_BODY_BYTES, OAUTH_REQUEST_TIMEOUT_MS } from '../../src/oauth/http.js';
import { LOGIN_TIMEOUT_MS } from '../../src/oauth/options.js';
import { MAX_EXTENSION_ID_CHARS } from '../../src/protocol/extension-id.js';
import { MAX_STORE_FILE_BYTES } from '../../src/store/file.js';
import { MAX_KEYRING_VALUE_CHARS } from '../../src/store/keyring.js';
import { KEYRING_TIMEOUT_MS } from '../../src/store/keyring-runner.js';
import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STALE_MS } from '../../src/store/lock.js';
import { MAX_CONNECTIONS_PER_ORIGIN } from '../../src/transport/http/create-pool.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The public entry points, as package.json `exports` maps them (`.` → src/index.ts). */
const ENTRIES = [
  'src/index.ts',
  'src/oauth/index.ts',
  'src/settings/index.ts',
  'src/content/index.ts',
  'src/worker/index.ts',
  'src/servers/index.ts',
  'src/agents/index.ts',
  'src/agents/ai/index.ts',
  'src/transport/index.ts',
  'src/diagnostics/index.ts',
  'src/catalog/index.ts',
];

interface Page {
  file: string;
  lines: string[];
}

const pages: Page[] = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
].map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n') }));

/** Code as the docs show it: each line of a fenced block, and each inline code span, with where it is. */
interface Code {
  at: string;
  text: string;
  /** The fence's language, or `inline`. */
  kind: string;
}

function codeOf(page: Page): Code[] {
  const out: Code[] = [];
  let fence: string | undefined;
  page.lines.forEach((line, index) => {
    const at = `${page.file}:${index + 1}`;
    const opens = /^ *```(\S*)/.exec(line);
    if (opens !== null) {
      fence = fence === undefined ? opens[1] || 'plain' : undefined;
      return;
    }
    if (fence !== undefined) {
      out.push({ at, text: line, kind: fence });
      return;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) out.push({ at, text: span[1] ?? '', kind: 'inline' });
  });
  return out;
}

const code = pages.flatMap(codeOf);
const COMMANDS = new Set(TABLE.map((command) => command.name));
/** Every option name a command (or one of its subcommands) takes, by command; `--json` and `--help` too. */
const TAKES = new Map(
  TABLE.map((command) => [
    command.name,
    new Set([
      '--json',
      '--help',
      ...allCommands([command]).flatMap((c) => Object.values(c.options).flatMap((o) => o.names)),
    ]),
  ]),
);

/** Each `autos-mcp <word> …` in a piece of code: the command word and the options given to it. */
function invocations(text: string): Array<{ command: string; options: string[] }> {
  const out: Array<{ command: string; options: string[] }> = [];
  const starts = [...text.matchAll(/(?:^|[\s"'(|;&=$])autos-mcp\s+([a-z][\w-]*)(?![\w:-])/g)];
  starts.forEach((match, n) => {
    const from = (match.index ?? 0) + match[0].length;
    const next = starts[n + 1];
    // Up to the next invocation, a pipe, a list operator or a comment; everything after ` -- ` is the
    // server's own command line, not autos-mcp's options.
    const rest = (
      text.slice(from, next === undefined ? undefined : next.index).split(/[|;&#]/)[0] ?? ''
    ).split(/\s--(?:\s|$)/)[0];
    const options = [...(rest ?? '').matchAll(/(?:^|\s)(--[a-z][\w-]*)/g)].map((m) => m[1] ?? '');
    out.push({ command: match[1] ?? '', options });
  });
  return out;
}

test('every autos-mcp command the docs name exists, and every option given to one is taken', () => {
  assert.ok(COMMANDS.has('call') && COMMANDS.has('pin'), 'the command list is read from the CLI table');
  // The check itself finds what it should.
  assert.deepEqual(invocations('npx autos-mcp cal x --nope -- npx autos-mcp demo-server --port 1'), [
    { command: 'cal', options: ['--nope'] },
    { command: 'demo-server', options: ['--port'] },
  ]);
  const unknown: string[] = [];
  const badOptions: string[] = [];
  let seen = 0;
  for (const piece of code) {
    if (piece.kind === 'ts') continue;
    // Lines the CLI prints (`error [kind]: …`) are output, whose words are not invocations.
    const typed = piece.text
      .split('\n')
      .filter((line) => !/^error \[/.test(line))
      .join('\n');
    for (const { command, options } of invocations(typed)) {
      seen++;
      if (!COMMANDS.has(command)) {
        unknown.push(`${piece.at}: autos-mcp ${command}`);
        continue;
      }
      // A server's own options after the demo server's name are not autos-mcp's.
      if (command === 'demo-server') continue;
      for (const option of options)
        if (TAKES.get(command)?.has(option) !== true)
          badOptions.push(`${piece.at}: autos-mcp ${command} ${option}`);
    }
  }
  assert.ok(seen > 50, `want the docs to show many invocations, found ${seen}`);
  assert.deepEqual(unknown, [], 'these commands do not exist');
  assert.deepEqual(badOptions, [], 'the CLI does not take these options');
});

test('shell blocks run autos-mcp as a project install has it: npx autos-mcp', () => {
  const plain: string[] = [];
  for (const piece of code) {
    if (piece.kind !== 'sh') continue;
    // At a command position: the start, after a pipe or a list operator, after `$(`, or as a server command.
    for (const match of piece.text.matchAll(/(?:^|[|;&(]\s*|\s--\s+|^\w+=\S*\s+)autos-mcp\b/g))
      if (!/npx\s+(?:-y\s+)?$/.test(piece.text.slice(0, match.index + match[0].length - 'autos-mcp'.length)))
        plain.push(`${piece.at}: ${piece.text.trim().slice(0, 80)}`);
  }
  assert.deepEqual(
    plain,
    [],
    'after npm install autos-mcp the command is npx autos-mcp (the synopsis is a text block)',
  );
});

/** Names a module of src/ declares: functions, methods, and properties that hold a function. */
function declaredInSrc(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1] ?? '');
        for (const m of text.matchAll(
          /^\s*(?:(?:public|private|static|async|readonly|get|set|override)\s+)*([A-Za-z_$][\w$]*)\??\s*(?:<[^>\n]*>)?\s*\(/gm,
        ))
          names.add(m[1] ?? '');
        for (const m of text.matchAll(/^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??:\s*(?:\(|<)/gm))
          names.add(m[1] ?? '');
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return names;
}

async function exportedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const entry of ENTRIES)
    for (const name of Object.keys(await import(path.join(ROOT, entry)))) names.add(name);
  return names;
}

test('every function a code span names is exported or declared in src/', async () => {
  const known = new Set([...(await exportedNames()), ...declaredInSrc()]);
  // Names of the platform and of other libraries the docs call.
  for (const name of ['gc', 'fetch', 'setTimeout', 'require', 'import', 'Array']) known.add(name);
  // Node's diagnostics_channel, which the docs name as the API used.
  known.add('channel');
  const missing: string[] = [];
  let seen = 0;
  for (const piece of code) {
    if (piece.kind !== 'inline') continue;
    // A shape like `name(a, b)` (what `tools` prints) is not a function of ours.
    if (/^name\(/.test(piece.text)) continue;
    for (const m of piece.text.matchAll(/(?:^|[^\w$.])([A-Za-z_$][\w$]*)\(/g)) {
      seen++;
      if (!known.has(m[1] ?? '')) missing.push(`${piece.at}: ${m[1]}(`);
    }
  }
  assert.ok(seen > 50, `want many named functions, found ${seen}`);
  assert.ok(!known.has('resolveServers') && known.has('resolveServer'), 'a misspelt name is not known');
  assert.deepEqual(missing, [], 'these functions are named in the docs but exist nowhere in src/');
});

/** `16 MiB`, `256 KiB`, `30 s`, `5 min`, `4096` or `4,096`: how the docs write a number. */
function shown(value: number, unit: 'bytes' | 'ms' | 'count'): RegExp {
  const plain = (n: number) => `(?:${n}|${n.toLocaleString('en-US')})`;
  if (unit === 'bytes') {
    if (value % 2 ** 20 === 0) return new RegExp(`\\b${plain(value / 2 ** 20)} MiB\\b`);
    if (value % 1024 === 0) return new RegExp(`\\b${plain(value / 1024)} KiB\\b`);
    return new RegExp(`\\b${plain(value)} bytes\\b`);
  }
  if (unit === 'ms') {
    const minutes = value % 60_000 === 0 ? `|${plain(value / 60_000)} min` : '';
    return new RegExp(`\\b(?:${plain(value / 1000)} s${minutes})\\b`);
  }
  return new RegExp(`(?:^|[^\\d,])${plain(value)}(?![\\d,])`);
}

test('every MAX_ constant the docs name is exported, with the value the sentence gives', async () => {
  const exported = await exportedNames();
  const values = new Map<string, unknown>();
  for (const entry of ENTRIES)
    for (const [name, value] of Object.entries(await import(path.join(ROOT, entry)))) values.set(name, value);
  const problems: string[] = [];
  let seen = 0;
  for (const page of pages)
    page.lines.forEach((line, index) => {
      for (const m of line.matchAll(/`(MAX_[A-Z_]+)`/g)) {
        seen++;
        const name = m[1] ?? '';
        const at = `${page.file}:${index + 1}`;
        if (!exported.has(name)) {
          problems.push(`${at}: ${name} is not exported`);
          continue;
        }
        const value = values.get(name);
        // The number written just before the name, in the same clause: "4 MiB (`MAX_CONFIG_BYTES`".
        const before = line.slice(Math.max(0, (m.index ?? 0) - 60), m.index);
        const unit = /BYTES/.test(name) ? 'bytes' : /_MS$/.test(name) ? 'ms' : 'count';
        if (typeof value === 'number' && /\d/.test(before) && !shown(value, unit).test(before))
          problems.push(`${at}: ${name} is ${value}, the sentence says "${before.trim()}"`);
      }
    });
  assert.ok(seen >= 4, `want MAX_ constants named, found ${seen}`);
  assert.deepEqual(problems, []);
});

test('the limits docs/limits.md quotes are the constants in src/', () => {
  const limits = pages.find((p) => p.file === 'docs/limits.md');
  assert.ok(limits !== undefined);
  const rows: Array<[row: string, value: number, unit: 'bytes' | 'ms' | 'count']> = [
    ['one message from the server', DEFAULT_MAX_MESSAGE_BYTES, 'bytes'],
    ["a request's deadline", DEFAULT_TIMEOUT_MS, 'ms'],
    ['the connect phase as a whole', DEFAULT_CONNECT_TIMEOUT_MS, 'ms'],
    ['MRTR input rounds per call', DEFAULT_MAX_INPUT_ROUNDS, 'count'],
    ['answers waiting', MAX_ANSWERS_QUEUED, 'count'],
    ['patterns in `tools.allow`', MAX_TOOL_PATTERNS, 'count'],
    ['one pattern, or a tool name in `pin`', MAX_TOOL_NAME, 'count'],
    ['one pattern, or a tool name in `pin`', MAX_GLOB_STARS, 'count'],
    ['tools in `pin`', MAX_PINS, 'count'],
    ['HTTP sockets per origin', MAX_CONNECTIONS_PER_ORIGIN, 'count'],
    ['body read from an authorization server', MAX_OAUTH_BODY_BYTES, 'bytes'],
    ['one request to an authorization server', OAUTH_REQUEST_TIMEOUT_MS, 'ms'],
    ['waiting for the user to log in', LOGIN_TIMEOUT_MS, 'ms'],
    ['waiting for the refresh lock', DEFAULT_LOCK_TIMEOUT_MS, 'ms'],
    ['a lock whose holder died', DEFAULT_STALE_MS, 'ms'],
    ['a credential store file', MAX_STORE_FILE_BYTES, 'bytes'],
    ['one OS credential store call', KEYRING_TIMEOUT_MS, 'ms'],
    ['one value in the OS credential store', MAX_KEYRING_VALUE_CHARS, 'bytes'],
    ['extensions turned on per connection', MAX_EXTENSIONS, 'count'],
    ['extensions turned on per connection', MAX_EXTENSION_ID_CHARS, 'count'],
    ["the server's `capabilities.extensions` kept", MAX_SERVER_EXTENSIONS, 'count'],
    ['time between two `tasks/get`', POLL_FLOOR_MS, 'count'],
    ['time between two `tasks/get`', POLL_CEILING_MS, 'ms'],
    ['time between two `tasks/get`', POLL_DEFAULT_MS, 'ms'],
    ['`tasks/get` per call', MAX_POLLS, 'count'],
    ['inputs in one `tasks/update`', MAX_TASK_INPUTS, 'count'],
    ['a task id; a status message', MAX_TASK_ID_CHARS, 'count'],
    ['a task id; a status message', MAX_STATUS_MESSAGE_CHARS, 'count'],
  ];
  const wrong: string[] = [];
  for (const [row, value, unit] of rows) {
    const line = limits.lines.find((l) => l.startsWith(`| ${row}`));
    if (line === undefined) wrong.push(`no row "${row}"`);
    else if (!shown(value, unit).test(line))
      wrong.push(`"${row}": the constant is ${value}, the row says ${line}`);
  }
  assert.deepEqual(wrong, []);
});

test('the README counts the runtime dependencies and optional peers package.json has', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const readme = pages.find((p) => p.file === 'README.md')?.lines.join('\n') ?? '';
  const count = (what: RegExp): number => words.indexOf((what.exec(readme)?.[1] ?? '').toLowerCase());
  const deps = Object.keys(pkg.dependencies ?? {});
  const peers = Object.keys(pkg.peerDependencies ?? {});
  assert.equal(count(/\b(\w+) runtime dependencies/), deps.length, `package.json: ${deps.join(', ')}`);
  assert.equal(
    count(/\b(\w+) optional peer dependencies/),
    peers.length,
    `package.json: ${peers.join(', ')}`,
  );
  // Each is named, with a link.
  for (const name of [...deps, ...peers])
    assert.ok(readme.includes(`[${name}](`), `the README names ${name}`);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

test('every link to a docs page, and to a heading of one, leads somewhere', () => {
  const anchors = new Map<string, Set<string>>();
  for (const page of pages) {
    let fenced = false;
    const set = new Set<string>();
    for (const line of page.lines) {
      if (/^ *```/.test(line)) fenced = !fenced;
      const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
      if (heading) set.add(slug(heading[1] ?? ''));
    }
    anchors.set(page.file, set);
  }
  assert.ok(anchors.get('docs/servers.md')?.has('pins'));
  assert.equal(slug('Argument checks before sending'), 'argument-checks-before-sending');
  const broken: string[] = [];
  for (const page of pages)
    page.lines.forEach((line, index) => {
      for (const m of line.matchAll(/\]\(((?:[\w./-]+\.md)?)(?:#([\w-]+))?\)/g)) {
        const [, file = '', anchor] = m;
        if (file === '' && anchor === undefined) continue;
        const target =
          file === ''
            ? page.file
            : path.posix.normalize(path.posix.join(path.posix.dirname(page.file), file));
        const known = anchors.get(target);
        const at = `${page.file}:${index + 1}`;
        if (known === undefined) broken.push(`${at}: ${file} does not exist`);
        else if (anchor !== undefined && !known.has(anchor))
          broken.push(`${at}: ${target} has no heading #${anchor}`);
      }
    });
  assert.deepEqual(broken, []);
});

test('TypeScript is never in a text block, where no type check would see it go stale', () => {
  const hiding: string[] = [];
  for (const page of pages)
    page.lines.forEach((line, index) => {
      const next = page.lines[index + 1] ?? '';
      if (/^ *```text\s*$/.test(line) && /^\s*import\s.+\sfrom\s+['"]/.test(next))
        hiding.push(`${page.file}:${index + 1}`);
    });
  assert.deepEqual(hiding, [], 'use ```ts (or ```ts no-run) for code: it is type-checked');
});
