/**
 * Docs are code, run as a user runs them: from a packed and installed copy of the package, outside the
 * repository. The package is built in a private copy of the sources (so a concurrent `npm run build` in the
 * repository cannot change what is packed), `npm pack`ed, and installed with `npm install --omit=dev` into a
 * fresh consumer project (`{"type":"module"}`) in a temporary directory. Neither tsx nor typescript is in that
 * project: the repository's tsc type-checks the examples there (strict, against the consumer's node_modules)
 * and emits them as JavaScript, and each one runs with plain `node`, cwd = the consumer project.
 *
 * Fenced blocks in README.md and docs/*.md:
 * - ```ts          type-checked and run; it must exit 0. A server it needs is the one shipped in the package
 *                  (`{ command: 'npx', args: ['autos-mcp', 'demo-server'] }`), never a file of the repository.
 * - ```ts no-run   type-checked only: it needs a remote server, a login or code of your own.
 * - ```sh          run with `bash -e -o pipefail` in the consumer project, its node_modules/.bin first on PATH;
 *                  every command must exit 0 (`autos-mcp …` against `autos-mcp demo-server`).
 * - ```sh no-run   not run: it needs a remote server, a login, saved settings or secrets, the repository
 *                  (`npm run demo`), or it is a synopsis with placeholders.
 * - ```text        output, transcripts and shapes: neither checked nor run.
 * Other shell or JavaScript fences (```bash, ```js, …) and other flags are refused, so nothing escapes the
 * convention.
 */
import assert from 'node:assert/strict';
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { npmEnv } from '../helpers/npm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const RUN_TIMEOUT_MS = 60_000;
const SETUP_TIMEOUT_MS = 240_000;

type Lang = 'ts' | 'sh';

interface Block {
  file: string;
  /** The first line of the block's code, 1-based (the line after the fence). */
  line: number;
  lang: Lang;
  code: string;
  run: boolean;
  /** `README_md_12`: the file name of the example in the consumer project. */
  id: string;
}

/** Fences whose language is a shell or JavaScript but not one of the two above. */
const REFUSED = new Set([
  'bash',
  'shell',
  'zsh',
  'console',
  'shell-session',
  'js',
  'javascript',
  'mjs',
  'typescript',
]);

function blocksIn(file: string): Block[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^( *)```(\S+)(?:\s+(.*))?$/.exec(lines[i] ?? '');
    if (fence === null) continue;
    const [, indent = '', lang = '', flags = ''] = fence;
    const at = `${file}:${i + 1}`;
    const start = i + 1;
    const end = lines.findIndex((l, n) => n >= start && l.trim() === '```');
    assert.ok(end >= start, `${at}: unterminated code block`);
    i = end;
    assert.ok(!REFUSED.has(lang), `${at}: use \`\`\`ts or \`\`\`sh (with no-run if needed), not ${lang}`);
    if (lang !== 'ts' && lang !== 'sh') continue;
    assert.ok(
      flags.trim() === '' || flags.trim() === 'no-run',
      `${at}: unknown flag "${flags}" (only no-run)`,
    );
    found.push({
      file,
      line: start + 1,
      lang,
      // A fence indented in a list: its lines carry the same indentation.
      code: lines
        .slice(start, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join('\n'),
      run: flags.trim() === '',
      id: `${file.replace(/[/.]/g, '_')}_${start + 1}`,
    });
  }
  return found;
}

const files = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const blocks = files.flatMap(blocksIn);
const examples = blocks.filter((b) => b.lang === 'ts');
const commands = blocks.filter((b) => b.lang === 'sh' && b.run);

const STAGE = mkdtempSync(path.join(tmpdir(), 'autos-mcp-docs-'));
const BUILD = path.join(STAGE, 'build');
const CONSUMER = path.join(STAGE, 'consumer');
after(() => rmSync(STAGE, { recursive: true, force: true }));

function output(run: SpawnSyncReturns<string>): string {
  return `exit ${run.status ?? run.signal}${run.error ? ` (${run.error.message})` : ''}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

let installed = false;
/** Builds and packs the package, and installs the tarball into the consumer project (once per file). */
function install(): void {
  if (installed) return;
  // A private copy of what the build reads, with the repository's node_modules (dev tools) linked in.
  mkdirSync(BUILD, { recursive: true });
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE']) {
    if (existsSync(path.join(ROOT, entry))) cpSync(path.join(ROOT, entry), path.join(BUILD, entry));
  }
  for (const dir of ['src', 'docs']) cpSync(path.join(ROOT, dir), path.join(BUILD, dir), { recursive: true });
  cpSync(path.join(ROOT, 'scripts/bundle.mjs'), path.join(BUILD, 'scripts/bundle.mjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(BUILD, 'node_modules'), 'dir');
  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: BUILD,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: npmEnv(),
  });

  mkdirSync(CONSUMER, { recursive: true });
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', CONSUMER], {
    cwd: BUILD,
    encoding: 'utf8',
    env: npmEnv(),
  })
    .trim()
    .split('\n')
    .pop();
  assert.ok(tarball, 'npm pack printed no file name');
  writeFileSync(
    path.join(CONSUMER, 'package.json'),
    JSON.stringify({ name: 'docs-consumer', private: true, type: 'module' }),
  );
  // With the optional peer dependency the docs tell `validateArguments` users to install, as they would.
  execFileSync(
    'npm',
    [
      'install',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      `./${tarball}`,
      '@cfworker/json-schema@4',
    ],
    { cwd: CONSUMER, stdio: ['ignore', 'ignore', 'pipe'], env: npmEnv() },
  );
  assert.ok(existsSync(path.join(CONSUMER, 'node_modules/.bin/autos-mcp')), 'the bin is installed');
  installed = true;
}

let compiled: SpawnSyncReturns<string> | undefined;
/** Type-checks every ```ts block in the consumer project and emits it as out/<id>.js (once per file). */
function compile(): SpawnSyncReturns<string> {
  if (compiled) return compiled;
  install();
  const src = path.join(CONSUMER, 'examples');
  mkdirSync(src, { recursive: true });
  for (const example of examples)
    writeFileSync(path.join(src, `${example.id}.ts`), `${example.code}\nexport {};\n`);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      // @types/node is not in the consumer project; it comes from the repository, as a user's own would.
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitOverride: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      erasableSyntaxOnly: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: true,
      // Snippets show code as a user writes it (`process.env.TOKEN`, a client made and not used further):
      // the repository's own hygiene flags (unused locals, no property access on index signatures) are off.
      rootDir: 'examples',
      outDir: 'out',
    },
    include: ['examples/*.ts'],
  };
  writeFileSync(path.join(CONSUMER, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  // The JavaScript is emitted even when a type error is found, so each run test reports on its own.
  compiled = spawnSync(process.execPath, [TSC, '-p', CONSUMER], { cwd: CONSUMER, encoding: 'utf8' });
  return compiled;
}

test('the docs hold examples and commands to run', () => {
  const runnable = examples.filter((e) => e.run).length;
  assert.ok(runnable >= 10, `want at least 10 runnable ts examples, found ${runnable}`);
  assert.ok(commands.length >= 3, `want at least 3 runnable sh blocks, found ${commands.length}`);
  // The installed copy has no repository files: an example that names one could not run there.
  const repositoryFile = /(?:examples|test|scripts|src)\/[\w./-]+\.(?:mjs|js|ts)\b/;
  const naming = blocks.filter((b) => b.run && repositoryFile.test(b.code)).map((b) => `${b.file}:${b.line}`);
  assert.deepEqual(naming, [], 'these blocks name a file of the repository');
});

/**
 * Where `code` asserts a type instead of having it: `as` (also `as const`), `<T>value`, and the non-null `!`.
 * An example that needs one shows a type that fights the reader; fix the type, not the example.
 */
function castsIn(code: string): Array<{ line: number; what: string }> {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: Array<{ line: number; what: string }> = [];
  const visit = (node: ts.Node): void => {
    const what = ts.isAsExpression(node)
      ? 'as'
      : ts.isTypeAssertionExpression(node)
        ? 'a <T> cast'
        : ts.isNonNullExpression(node)
          ? 'a non-null !'
          : undefined;
    if (what !== undefined) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ line: line + 1, what: `${what} (${node.getText(source).slice(0, 60)})` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no ts example needs a cast, an as or a non-null !', () => {
  // The check itself can fail: each form is found.
  assert.equal(
    castsIn('const a = b as string; const c = <number>d; e!.f; const g = [1] as const;').length,
    4,
  );
  assert.deepEqual(castsIn("import { a as b } from 'x'; const c = d satisfies E; if (f !== g) h();"), []);
  const offending = examples.flatMap((e) =>
    castsIn(e.code).map((cast) => `${e.file}:${e.line - 1 + cast.line}: ${cast.what}`),
  );
  assert.deepEqual(offending, [], 'these doc examples assert a type instead of having it');
});

test('every ts example type-checks against the installed package', { timeout: SETUP_TIMEOUT_MS }, () => {
  const run = compile();
  assert.equal(run.status, 0, `tsc found errors in doc examples:\n${run.stdout}${run.stderr}`);
});

for (const example of examples.filter((e) => e.run)) {
  test(`example ${example.file}:${example.line} runs`, { timeout: SETUP_TIMEOUT_MS }, () => {
    compile();
    const file = path.join(CONSUMER, 'out', `${example.id}.js`);
    assert.ok(existsSync(file), `tsc emitted no ${file}`);
    const run = spawnSync(process.execPath, [file], {
      cwd: CONSUMER,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
    });
    assert.equal(run.status, 0, `${example.file}:${example.line}: ${output(run)}`);
  });
}

for (const command of commands) {
  test(`commands ${command.file}:${command.line} run`, { timeout: SETUP_TIMEOUT_MS }, () => {
    install();
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-x', '-c', command.code], {
      cwd: CONSUMER,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
      env: {
        ...process.env,
        PATH: `${path.join(CONSUMER, 'node_modules/.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
      },
    });
    assert.equal(run.status, 0, `${command.file}:${command.line} (bash -x trace on stderr): ${output(run)}`);
  });
}
