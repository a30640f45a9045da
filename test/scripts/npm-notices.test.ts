/**
 * npm's own notices never reach what a test reads. npm prints "New major version of npm available!" on
 * stderr when the registry has a newer npm (checked once a week, never under a CI variable), so a test that
 * reads a child's stderr passed on CI and on a machine whose ~/.npmrc turns it off, and failed on a fresh
 * one (test/runtimes/suite.ts: `npx --no-install autos-mcp` printed it). Every npm and npx started from
 * test/, scripts/, bench/ and examples/ gets test/helpers/npm.ts's environment: checked here in the
 * sources, then against the real npm with a fake registry that announces a newer npm.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { listenLocal } from '../helpers/http-server.js';
import { npmEnv, QUIET_NPM } from '../helpers/npm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HELPER = 'test/helpers/npm.ts';
/** Calls that start a program: a first argument naming npm or npx is one the check looks at. */
const STARTERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'run']);
/** The comment that lets one call start npm with its notices on, for the test below that needs them. */
const NOTICES_ON = 'npm-notices: on, on purpose';

const NPM = /^(?:npm|npx)(?:\s|$)/;

/** A string naming npm or npx: a command line (`npm pack`) where `line`, else one argv word. */
function isNpm(node: ts.Node | undefined, line: boolean): boolean {
  return (
    node !== undefined &&
    (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
    (line ? NPM.test(node.text) : node.text === 'npm' || node.text === 'npx')
  );
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

const isNpmEnv = (node: ts.Node): boolean =>
  ts.isCallExpression(node) && node.expression.getText() === 'npmEnv';

/** An environment argument `npmEnv(…)`, or an options argument with `env: npmEnv(…)`. */
function hasQuietEnv(call: ts.CallExpression): boolean {
  return call.arguments.some(
    (arg) =>
      isNpmEnv(arg) ||
      (ts.isObjectLiteralExpression(arg) &&
        arg.properties.some(
          (p) => ts.isPropertyAssignment(p) && p.name.getText() === 'env' && isNpmEnv(p.initializer),
        )),
  );
}

/**
 * Where `code` starts npm or npx without npm's notices off: a call that starts a program with `npm`/`npx`
 * first and no `env: npmEnv(…)`, or an argv array that begins with `npm`/`npx` in a file that never calls
 * `npmEnv` (the array is run elsewhere in that file, with the file's environment). `line: what` each.
 */
function unquietStarts(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, true);
  const usesHelper = /\bnpmEnv\(/.test(code);
  const found: string[] = [];
  const shown = (node: ts.Node) => node.getText(source).replace(/\s+/g, ' ').slice(0, 70);
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && STARTERS.has(calleeName(node) ?? '') && isNpm(node.arguments[0], true)) {
      const comments = ts.getLeadingCommentRanges(code, node.getFullStart()) ?? [];
      const statement = ts.findAncestor(node, (n) => ts.isStatement(n) || ts.isVariableDeclarationList(n));
      const around = ts.getLeadingCommentRanges(code, statement?.getFullStart() ?? node.getFullStart()) ?? [];
      const onPurpose = [...comments, ...around].some((c) => code.slice(c.pos, c.end).includes(NOTICES_ON));
      if (!hasQuietEnv(node) && !onPurpose) found.push(`${at(node)}: ${shown(node)}`);
    } else if (ts.isArrayLiteralExpression(node) && isNpm(node.elements[0], false) && !usesHelper) {
      found.push(`${at(node)}: ${shown(node)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `export name=value …` pairs a shell script sets before its first npm or npx, or why it does not. */
function shellProblem(code: string): string | undefined {
  const lines = code.split('\n').map((line) => line.replace(/(^|\s)#.*$/, ''));
  const first = lines.findIndex((line) => /(?:^|[;&|(]|\bthen|\bdo|\belse)\s*(?:npm|npx)\s/.test(line));
  if (first < 0) return undefined;
  const exported = new Map<string, string>();
  for (const line of lines.slice(0, first)) {
    const match = /^\s*export\s+(.*)$/.exec(line);
    for (const pair of match?.[1]?.split(/\s+/) ?? []) {
      const [name, value] = pair.split('=');
      if (name !== undefined && value !== undefined) exported.set(name, value);
    }
  }
  const missing = Object.entries(QUIET_NPM).filter(([name, value]) => exported.get(name) !== value);
  return missing.length === 0
    ? undefined
    : `line ${first + 1} runs npm before ${missing.map(([n, v]) => `${n}=${v}`).join(' ')} is exported`;
}

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (/\.(?:ts|mts|js|mjs|sh)$/.test(entry.name)) out.push(child);
    }
  };
  walk(dir);
  return out;
}

test('the source check finds an npm or npx started without the helper, and only that', () => {
  const bad = [
    "execFileSync('npm', ['run', 'build'], { cwd });",
    "spawn('npx', ['--no-install', 'x'], { env: { PATH } });",
    "const ran = await run('npm', ['install'], { cwd: project });",
    "cp.execSync('npm pack --silent');",
    "const argv = ['npx', '--no-install', 'autos-mcp'];",
  ];
  for (const line of bad) assert.equal(unquietStarts('a.ts', line).length, 1, line);
  const good = [
    "execFileSync('npm', ['run', 'build'], { cwd, env: npmEnv() });",
    "spawn('npx', ['--no-install', 'x'], { env: npmEnv({ PATH }) });",
    "const argv = ['npx', 'x']; spawn(argv[0], [], { env: npmEnv(base) });",
    "resolveWindowsCommand('npx', env, 'C:\\\\work', exists);",
    "connect({ command: 'npx', args: ['autos-mcp', 'demo-server'] });",
    "const shown = ['npm run bench', ...argv].join(' ');",
    `// ${NOTICES_ON}: the control\nspawn('npx', ['x'], { env: plain });`,
  ];
  for (const line of good) assert.deepEqual(unquietStarts('a.ts', line), [], line);
  assert.match(shellProblem('set -e\nnpm ci\n') ?? '', /line 2 runs npm before npm_config_update_notifier/);
  assert.match(shellProblem('if x; then npx biome check .; fi\n') ?? '', /line 1/);
  const exported = Object.entries(QUIET_NPM)
    .map(([n, v]) => `${n}=${v}`)
    .join(' ');
  assert.equal(shellProblem(`# npm ci in a comment\nexport ${exported}\n  npm ci\n`), undefined);
});

test('every npm and npx started from test/, scripts/, bench/ and examples/ has npm notices off', () => {
  const files = ['test', 'scripts', 'bench', 'examples'].flatMap(sourcesUnder).filter((f) => f !== HELPER);
  assert.ok(files.length > 100, `found only ${files.length} files`);
  const offending = files.flatMap((file) => {
    const code = readFileSync(path.join(ROOT, file), 'utf8');
    if (file.endsWith('.sh')) {
      const problem = shellProblem(code);
      return problem === undefined ? [] : [`${file}: ${problem}`];
    }
    // Parsed only where npm or npx is named at all (a few dozen files of several hundred).
    if (!/['"`]np[mx]\b/.test(code)) return [];
    return unquietStarts(file, code).map((where) => `${file}:${where}`);
  });
  assert.deepEqual(offending, [], `start these with env: npmEnv(…) from ${HELPER}`);
});

const stage = mkdtempSync(path.join(tmpdir(), 'autos-mcp-npm-notices-'));
after(() => rmSync(stage, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** A fresh machine's environment: no CI variable, a new HOME with no .npmrc, an empty npm cache. */
function freshMachine(name: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = path.join(stage, name);
  mkdirSync(home, { recursive: true });
  return {
    PATH: [path.dirname(process.execPath), process.env['PATH'] ?? ''].join(path.delimiter),
    HOME: home,
    npm_config_cache: path.join(home, '.npm'),
    ...extra,
  };
}

test('npm reads the helper environment: update-notifier, fund and audit off', async () => {
  const settings = ['update-notifier', 'fund', 'audit'];
  // npm-notices: on, on purpose: the control, npm's defaults on a fresh machine.
  const bare = await run('npm', ['config', 'get', ...settings], freshMachine('config-bare'), stage);
  assert.equal(bare.code, 0, bare.stderr);
  assert.deepEqual(
    bare.stdout.trim().split('\n'),
    settings.map((s) => `${s}=true`),
    'npm defaults',
  );
  const quiet = await run('npm', ['config', 'get', ...settings], npmEnv(freshMachine('config-quiet')), stage);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.deepEqual(
    quiet.stdout.trim().split('\n'),
    settings.map((s) => `${s}=false`),
  );
});

test('a registry that announces a newer npm: npx prints the notice with a bare env, nothing with npmEnv', async () => {
  // The registry: the `npm` packument says 999.0.0 is out. `/served` answers once it has been sent, so
  // the control's command outlives npm's check (npm prints the notice at exit only if its check is done).
  let packuments = 0;
  let served: () => void = () => {};
  const sent = new Promise<void>((resolve) => {
    served = resolve;
  });
  const server = createServer((req, res) => {
    if (req.url === '/npm') {
      packuments++;
      const version = { name: 'npm', version: '999.0.0', dist: { tarball: 'http://127.0.0.1:9/npm.tgz' } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ name: 'npm', 'dist-tags': { latest: '999.0.0' }, versions: { '999.0.0': version } }),
      );
      res.once('finish', served);
    } else if (req.url === '/served') void sent.then(() => res.writeHead(200).end('served'));
    else res.writeHead(404).end('{}');
  });
  const { origin } = await listenLocal(server);
  try {
    const project = path.join(stage, 'project');
    mkdirSync(path.join(project, 'node_modules/.bin'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), '{"name":"project","private":true}');
    const bin = path.join(project, 'node_modules/.bin/hello');
    writeFileSync(
      bin,
      `#!${process.execPath}\nconst wait = process.env.WAIT_URL;\n` +
        "(wait ? fetch(wait).then((r) => r.text()) : Promise.resolve()).then(() => console.log('hello'));\n",
    );
    chmodSync(bin, 0o755);
    const registry = { npm_config_registry: `${origin}/` };

    // npm-notices: on, on purpose: the control, a fresh machine's npx.
    const control = await run(
      'npx',
      ['--no-install', 'hello'],
      freshMachine('npx-bare', { ...registry, WAIT_URL: `${origin}/served` }),
      project,
    );
    assert.equal(control.code, 0, control.stderr);
    assert.equal(control.stdout, 'hello\n');
    assert.match(control.stderr, /New major version of npm available! [\d.]+ -> 999\.0\.0/);
    assert.equal(packuments, 1);

    const quiet = await run(
      'npx',
      ['--no-install', 'hello'],
      npmEnv(freshMachine('npx-quiet', registry)),
      project,
    );
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, 'hello\n');
    assert.equal(quiet.stderr, '');
    assert.equal(packuments, 1, 'with npmEnv, npm never asked the registry for a newer npm');
  } finally {
    server.close();
    server.closeAllConnections();
  }
});
