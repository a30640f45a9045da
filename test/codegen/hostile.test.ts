/**
 * `autos-mcp types` against a server whose names, descriptions and schemas try to become code
 * (test/fixtures/types-server.mjs): the module compiles under strict settings, every payload is inside a
 * comment or a string literal (checked with the TypeScript parser), remote and file `$ref`s are never
 * fetched or read, and a typed call through the binding works. Then the server changes one description
 * (a rug pull): the changed tool is refused before it is called, through `withTools` and through `bind`.
 * The same server as a file tree (`types --tree`): every payload of every file is a comment or a literal
 * (function and file names keep only identifier letters), and the tree compiles.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { cli, compile, consumer, ROOT, runEmitted, type Stage, shown, stage } from './helpers.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/types-server.mjs');

let on: Stage;
let project: string;
let remote: Server;
let remoteRequests = 0;
let env: Record<string, string>;
let log: string;

before(async () => {
  on = stage();
  project = consumer(on, 'hostile');
  remote = createServer((_request, response) => {
    remoteRequests++;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ type: 'string', description: 'PWNED_FETCHED' }));
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const refFile = path.join(on.dir, 'ref.json');
  writeFileSync(refFile, JSON.stringify({ type: 'string', description: 'PWNED_FILE_READ' }));
  log = path.join(on.dir, 'server.log');
  env = {
    TYPES_REMOTE_REF: `http://127.0.0.1:${(remote.address() as AddressInfo).port}/schema.json`,
    TYPES_FILE_REF: refFile,
    TYPES_LOG: log,
  };
});

after(async () => {
  await new Promise((resolve) => remote.close(resolve));
  on.remove();
});

/** Every comment range of a source file, once each. */
function commentRanges(source: string, file: ts.SourceFile): Array<[number, number]> {
  const ranges = new Map<number, number>();
  const visit = (node: ts.Node): void => {
    // A JSDoc block is a comment: its ranges are found from the token it precedes.
    if (ts.isJSDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length === 0) {
      for (const r of ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []) ranges.set(r.pos, r.end);
      for (const r of ts.getTrailingCommentRanges(source, node.getEnd()) ?? []) ranges.set(r.pos, r.end);
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return [...ranges];
}

/** The tokens of a source file that are neither trivia nor comments. */
function tokens(file: ts.SourceFile): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    // A JSDoc block is a comment: its ranges are found from the token it precedes.
    if (ts.isJSDoc(node)) return;
    const children = node.getChildren(file);
    if (children.length === 0) out.push(node);
    for (const child of children) visit(child);
  };
  visit(file);
  return out;
}

const count = (text: string, word: string): number => text.split(word).length - 1;

describe('autos-mcp types against a hostile server', () => {
  let source = '';

  test('the module is written; the 10,000-deep tool is named as left out; no $ref is fetched or read', () => {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    const run = cli(
      on.bin,
      ['types', '--out', 'tools.ts', ...envArgs, '--', process.execPath, FIXTURE],
      project,
    );
    assert.equal(run.code, 0, shown(run));
    assert.match(run.stderr, /wrote 14 tools to .*tools\.ts/);
    assert.match(run.stderr, /1 tool was left out/);
    source = readFileSync(path.join(project, 'tools.ts'), 'utf8');
    assert.match(source, /- deep-10k: the definition is nested too deeply to digest/);
    assert.equal(remoteRequests, 0, 'a remote $ref was fetched');
    assert.doesNotMatch(source, /PWNED_FETCHED|PWNED_FILE_READ/);
    // Deep, cyclic and exponential schemas are cut, and say so.
    assert.match(source, /Note: parts nested deeper than 32 levels are typed unknown\./);
    assert.match(source, /Note: a recursive \$ref is typed unknown where it recurs\./);
    assert.match(source, /Note: the schema has more than 5000 parts; the rest is typed unknown\./);
    assert.match(
      source,
      /Note: a \$ref to another document \(never fetched\) or to nothing is typed unknown\./,
    );
  });

  test('no raw line or paragraph separator, control, escape or bidi character is in the file', () => {
    const invisible = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
    assert.doesNotMatch(source, invisible);
    assert.ok(source.includes('\\u2028PWNED_enum_ls'), 'U+2028 in a literal is kept as an escape');
  });

  test('every payload is inside a comment or a string literal, never code', () => {
    const file = ts.createSourceFile('tools.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const inComments = commentRanges(source, file).reduce(
      (sum, [start, end]) => sum + count(source.slice(start, end), 'PWNED'),
      0,
    );
    let inStrings = 0;
    const code: string[] = [];
    for (const token of tokens(file)) {
      const text = token.getText(file);
      if (!text.includes('PWNED')) continue;
      if (token.kind === ts.SyntaxKind.StringLiteral) inStrings += count(text, 'PWNED');
      else code.push(`${ts.SyntaxKind[token.kind]} ${text}`);
    }
    assert.deepEqual(code, [], 'server text reached the code');
    assert.ok(inComments > 10 && inStrings > 10, `want payloads in both, got ${inComments} and ${inStrings}`);
    assert.equal(inComments + inStrings, count(source, 'PWNED'), 'every occurrence is accounted for');
    // What the generator library would paste verbatim is gone: `tsType`, `tsEnumNames`, titles as names.
    assert.doesNotMatch(source, /PWNED_tsType|PWNED_enumName/);
    assert.doesNotMatch(source, /^\s*export (interface|type) \w*PWNED/m);
  });

  test('the module and typed calls through it compile under strict settings, and run', () => {
    writeFileSync(
      path.join(project, 'main.ts'),
      `import { type Tools, withTools } from './tools.js';

const server = { command: process.execPath, args: [${JSON.stringify(FIXTURE)}], env: ${JSON.stringify(env)} };
const out = await withTools(server, async (tools) => {
  const said = await tools.plain({ text: 'typed hello', mode: '*/PWNED_enum_c' });
  if (said.isError) throw new Error('plain failed');
  const hostile = await tools['*/ PWNED_name() /*']();
  const proto = await tools['__proto__']();
  const ctor = await tools.constructor();
  return { said: said.structuredContent.said, hostile: hostile.content, proto: proto.content, ctor: ctor.content };
});
console.log(JSON.stringify(out));

export function typeOnly(tools: Tools): void {
  // @ts-expect-error a misspelt parameter is a compile error
  void tools.plain({ txt: 'x' });
  // @ts-expect-error a value outside the enum is a compile error
  void tools.plain({ text: 'x', mode: 'other' });
  // @ts-expect-error a tool the server does not have is a compile error
  void tools.nope();
}
`,
    );
    const built = compile(project);
    assert.equal(built.status, 0, shown(built));
    const run = runEmitted(project, 'main.js');
    assert.equal(run.code, 0, shown(run));
    const got = JSON.parse(run.stdout) as Record<string, Array<{ text: string }>> & { said: string };
    assert.equal(got.said, 'typed hello');
    assert.equal(got['hostile']?.[0]?.text, 'called */ PWNED_name() /*');
    assert.equal(got['proto']?.[0]?.text, 'called __proto__');
    assert.equal(got['ctor']?.[0]?.text, 'called constructor');
  });

  test('withTools checks its pins against the last tools/list: one listing for 5 calls (bind lists before each)', () => {
    writeFileSync(log, '');
    writeFileSync(
      path.join(project, 'many.ts'),
      `import { connect } from 'autos-mcp';
import { bind, withTools } from './tools.js';

const server = { command: process.execPath, args: [${JSON.stringify(FIXTURE)}], env: ${JSON.stringify(env)} };
await withTools(server, async (tools) => {
  for (let i = 0; i < 5; i++) await tools.a_b();
});
const client = await connect(server);
try {
  for (let i = 0; i < 5; i++) await bind(client).a_b();
} finally {
  await client.close();
}
`,
    );
    const built = compile(project);
    assert.equal(built.status, 0, shown(built));
    const run = runEmitted(project, 'many.js');
    assert.equal(run.code, 0, shown(run));
    // One line per server start, tools/list and tools/call: the withTools run, then the bind run.
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const second = lines.lastIndexOf('start');
    const lists = (part: string[]) => part.filter((line) => line === 'list').length;
    assert.deepEqual(
      { withTools: lists(lines.slice(0, second)), bind: lists(lines.slice(second)) },
      { withTools: 1, bind: 5 },
    );
    assert.equal(lines.filter((line) => line === 'call a_b').length, 10);
  });

  test('a tool whose definition changed since generation is refused before it is called', () => {
    writeFileSync(log, '');
    writeFileSync(
      path.join(project, 'changed.ts'),
      `import { connect, isMcpError } from 'autos-mcp';
import { bind, withTools } from './tools.js';

const server = {
  command: process.execPath,
  args: [${JSON.stringify(FIXTURE)}],
  env: { ...${JSON.stringify(env)}, TYPES_VARIANT: 'changed' },
};
const outcome = (error: unknown) => (isMcpError(error) ? { kind: error.kind, delivery: error.delivery } : String(error));
const pinned = await withTools(server, async (tools) => {
  const other = await tools.a_b();
  try {
    await tools.plain({ text: 'x' });
    return { other: other.isError === true, plain: 'called' };
  } catch (error) {
    return { other: other.isError === true, plain: outcome(error) };
  }
});
const client = await connect(server);
let bound: unknown;
try {
  await bind(client).plain({ text: 'x' });
  bound = 'called';
} catch (error) {
  bound = outcome(error);
} finally {
  await client.close();
}
console.log(JSON.stringify({ pinned, bound }));
`,
    );
    const built = compile(project);
    assert.equal(built.status, 0, shown(built));
    const run = runEmitted(project, 'changed.js');
    assert.equal(run.code, 0, shown(run));
    const refused = { kind: 'tool_changed', delivery: 'not_sent' };
    assert.deepEqual(JSON.parse(run.stdout), { pinned: { other: false, plain: refused }, bound: refused });
    assert.ok(existsSync(log));
    const calls = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('call '));
    assert.deepEqual(calls, ['call a_b'], 'the changed tool never reached the server');
  });
});

describe('autos-mcp types --tree against a hostile server', () => {
  test('in every file every payload is a comment or a string literal; names keep only identifier letters; it compiles', () => {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    const run = cli(
      on.bin,
      ['types', '--tree', 'tree', '--name', 'hostile', ...envArgs, '--', process.execPath, FIXTURE],
      project,
    );
    assert.equal(run.code, 0, shown(run));
    const folder = path.join(project, 'tree/hostile');
    const files = readdirSync(folder).filter((f) => f.endsWith('.ts'));
    assert.equal(files.length, 16, files.join(' '));
    const code: string[] = [];
    let payloads = 0;
    for (const name of files) {
      assert.match(name, /^[A-Za-z0-9_]+\.ts$/);
      const source = readFileSync(path.join(folder, name), 'utf8');
      assert.doesNotMatch(
        source,
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/u,
      );
      const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      let accounted = commentRanges(source, file).reduce(
        (sum, [start, end]) => sum + count(source.slice(start, end), 'PWNED'),
        0,
      );
      for (const token of tokens(file)) {
        const text = token.getText(file);
        if (!text.includes('PWNED')) continue;
        accounted += count(text, 'PWNED');
        // A function name made from a tool name: its letters only, never anything that could be code.
        const identifier = token.kind === ts.SyntaxKind.Identifier && /^[A-Za-z0-9_$]+$/.test(text);
        if (token.kind !== ts.SyntaxKind.StringLiteral && !identifier) code.push(`${name}: ${text}`);
      }
      assert.equal(accounted, count(source, 'PWNED'), `${name}: every occurrence is accounted for`);
      payloads += accounted;
    }
    assert.deepEqual(code, [], 'server text reached the code');
    assert.ok(payloads > 30, `want payloads in the tree, got ${payloads}`);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      readFileSync(path.join(project, 'tsconfig.json'), 'utf8').replace('"*.ts"', '"*.ts", "tree/**/*.ts"'),
    );
    const built = compile(project);
    assert.equal(built.status, 0, shown(built));
    assert.ok(existsSync(path.join(project, 'out/tree/hostile/index.js')), 'the tree was compiled');
  });
});
