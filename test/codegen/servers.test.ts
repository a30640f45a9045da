/**
 * `autos-mcp types` end to end against real servers, through the real CLI binary: the modules of
 * @modelcontextprotocol/server-filesystem and @modelcontextprotocol/server-everything are generated,
 * type-checked in a consumer project under strict settings (with calls that must and must not compile),
 * and their typed calls run. Without the optional generator library, one sentence says what to install
 * and no server is started.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  cli,
  compile,
  consumer,
  ROOT,
  runEmitted,
  type Stage,
  shown,
  stage,
  withoutGenerator,
} from './helpers.js';

const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let on: Stage;
let project: string;
let files: string;

before(() => {
  on = stage();
  project = consumer(on, 'servers');
  files = path.join(on.dir, 'files');
  mkdirSync(files);
  writeFileSync(path.join(files, 'note.txt'), 'typed\nfile\n');
});

after(() => on.remove());

describe('autos-mcp types against real servers', () => {
  test('server-filesystem: a module with input and output types and pins', () => {
    const run = cli(on.bin, ['types', '--out', 'fs.ts', '--', process.execPath, FILESYSTEM, files], project);
    assert.equal(run.code, 0, shown(run));
    const source = readFileSync(path.join(project, 'fs.ts'), 'utf8');
    assert.match(source, /^export interface ReadTextFileInput \{$/m);
    assert.match(source, /^export interface ReadTextFileOutput \{$/m);
    assert.match(
      source,
      /read_text_file\(args: ReadTextFileInput, options\?: CallOptions\): Promise<TypedResult<ReadTextFileOutput>>;/,
    );
    assert.match(source, /"read_text_file": \{ digest: "sha256:[0-9a-f]{64}", parts: \{/);
    assert.match(source, /^import \{[^}]*\} from 'autos-mcp';$/m);
    assert.equal(source.match(/^import /gm)?.length, 1, 'one import, from autos-mcp');
  });

  test('server-everything: non-identifier names are quoted; --json reports the tools', () => {
    const run = cli(
      on.bin,
      ['types', '--out', 'everything.ts', '--json', '--', process.execPath, EVERYTHING, 'stdio'],
      project,
    );
    assert.equal(run.code, 0, shown(run));
    const report = JSON.parse(run.stdout) as { tools: string[]; out: string; excluded: unknown[] };
    assert.ok(report.tools.includes('get-sum') && report.tools.includes('get-structured-content'));
    assert.equal(report.out, path.join(project, 'everything.ts'));
    const source = readFileSync(report.out, 'utf8');
    assert.match(
      source,
      /^ {2}"get-sum"\(args: GetSumInput, options\?: CallOptions\): Promise<CallToolResult>;$/m,
    );
    assert.match(source, /"get-structured-content"\(args: GetStructuredContentInput/);
  });

  test('without --out the module goes to stdout', () => {
    const run = cli(on.bin, ['types', '--', process.execPath, FILESYSTEM, files], project);
    assert.equal(run.code, 0, shown(run));
    assert.equal(run.stdout, readFileSync(path.join(project, 'fs.ts'), 'utf8'));
  });

  test('the modules compile with typed calls, and wrong calls do not', () => {
    writeFileSync(
      path.join(project, 'main.ts'),
      `import { connect } from 'autos-mcp';
import { withTools as everything } from './everything.js';
import { bind, type Tools, withTools } from './fs.js';

const fsServer = { command: process.execPath, args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(files)}] };
const note = ${JSON.stringify(path.join(files, 'note.txt'))};

const text = await withTools(fsServer, async (fs) => {
  const result = await fs.read_text_file({ path: note });
  if (result.isError) throw new Error('read_text_file failed');
  return result.structuredContent.content;
});
const head = await withTools(fsServer, async (fs) => {
  const result = await fs.read_text_file({ path: note, head: 1 });
  return result.isError ? 'error' : result.structuredContent.content;
});

const client = await connect(fsServer);
const dirs = await bind(client).list_allowed_directories();
await client.close();

const sums = await everything({ command: process.execPath, args: [${JSON.stringify(EVERYTHING)}, 'stdio'] }, async (ev) => {
  const sum = await ev['get-sum']({ a: 2, b: 40 });
  const weather = await ev['get-structured-content']({ location: 'New York' });
  if (weather.isError) throw new Error('get-structured-content failed');
  return { sum: sum.content, temperature: weather.structuredContent.temperature };
});
console.log(JSON.stringify({ text, head, dirs: dirs.isError ? 'error' : dirs.structuredContent, sums }));

export function typeOnly(fs: Tools): void {
  // @ts-expect-error a misspelt parameter is a compile error
  void fs.read_text_file({ paht: note });
  // @ts-expect-error a required parameter is required
  void fs.read_text_file({});
  // @ts-expect-error head is a number
  void fs.read_text_file({ path: note, head: '1' });
  void fs.read_text_file({ path: note }).then((result) => {
    // @ts-expect-error structuredContent is typed only once isError is ruled out
    void result.structuredContent.content;
  });
}
`,
    );
    const built = compile(project);
    assert.equal(built.status, 0, shown(built));
    const run = runEmitted(project, 'main.js');
    assert.equal(run.code, 0, shown(run));
    const got = JSON.parse(run.stdout) as {
      text: string;
      head: string;
      dirs: { content: string };
      sums: { sum: Array<{ text: string }>; temperature: unknown };
    };
    assert.equal(got.text, 'typed\nfile\n');
    assert.equal(got.head.trimEnd(), 'typed');
    assert.match(got.dirs.content, /files/);
    assert.match(got.sums.sum[0]?.text ?? '', /42/);
    assert.equal(typeof got.sums.temperature, 'number');
  });

  test('without json-schema-to-typescript: one sentence says what to install, exit 2, no server started', () => {
    const bare = withoutGenerator(on);
    const started = path.join(on.dir, 'started');
    const marker = `require('node:fs').writeFileSync(${JSON.stringify(started)}, 'x')`;
    const run = cli(bare, ['types', '--', process.execPath, '-e', marker], project);
    assert.equal(run.code, 2, shown(run));
    assert.match(
      run.stderr,
      /autos-mcp types needs json-schema-to-typescript, which is not installed: run npm install --save-dev json-schema-to-typescript@16/,
    );
    assert.equal(existsSync(started), false, 'a server was started');
  });

  test('--out is refused on other commands; types takes no positional argument', () => {
    const other = cli(on.bin, ['tools', '--out', 'x.ts', '--', process.execPath, FILESYSTEM, files], project);
    assert.equal(other.code, 2, shown(other));
    assert.match(other.stderr, /--out is an option of skill and types/);
    const extra = cli(on.bin, ['types', 'extra', '--', process.execPath, FILESYSTEM, files], project);
    assert.equal(extra.code, 2, shown(extra));
  });
});
