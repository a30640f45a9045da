/**
 * For the codegen tests: the run's build of the package (test/helpers/package-build.ts: made once, from a
 * private copy of the sources), its real CLI binary, and consumer projects that import `autos-mcp` from
 * that build and type-check with the strictest settings a user may have. Each test file makes its own
 * stage (for its consumers) and removes it.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageBuild } from '../helpers/package-build.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

export interface Stage {
  dir: string;
  /** The run's build, with `dist/bin.js` (shared: read only). */
  build: string;
  bin: string;
  remove(): void;
}

/** A fresh stage for consumer projects, on the run's build of the package. */
export function stage(): Stage {
  const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-codegen-'));
  const build = packageBuild().dir;
  const bin = path.join(build, 'dist/bin.js');
  return { dir, build, bin, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node <bin> …args` as a user runs it. */
export function cli(bin: string, args: readonly string[], cwd: string): Run {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A consumer project in `stage.dir/<name>`: `{"type":"module"}`, `autos-mcp` resolved to the private
 * build, and a tsconfig with `strict`, `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes`,
 * `noPropertyAccessFromIndexSignature`, `verbatimModuleSyntax`, `erasableSyntaxOnly`, unused-code checks
 * and `skipLibCheck: false` (the package's own declarations are checked too). `include`: its sources.
 */
export function consumer(on: Stage, name: string, include: readonly string[] = ['*.ts']): string {
  const dir = path.join(on.dir, name);
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(on.build, path.join(dir, 'node_modules/autos-mcp'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noPropertyAccessFromIndexSignature: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: false,
    rootDir: '.',
    outDir: 'out',
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }, null, 2));
  return dir;
}

/** `tsc -p dir`: type-checks and emits `out/*.js`. */
export function compile(dir: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
}

/** Runs `out/<file>.js` of a consumer project with plain node; its stdout, and a failure with everything. */
export function runEmitted(dir: string, file: string, env: Record<string, string> = {}): Run {
  const run = spawnSync(process.execPath, [path.join(dir, 'out', file)], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A report of a failed command, for an assertion message. */
export function shown(run: Run | SpawnSyncReturns<string>): string {
  const code = 'code' in run ? run.code : run.status;
  return `exit ${code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

/**
 * A copy of the build whose node_modules has everything but `json-schema-to-typescript`, as an
 * install of autos-mcp without the optional peer dependency has.
 */
export function withoutGenerator(on: Stage): string {
  const dir = path.join(on.dir, 'bare');
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  cpSync(path.join(on.build, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(on.build, 'package.json'), path.join(dir, 'package.json'));
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === 'json-schema-to-typescript' || entry === '.bin' || entry.startsWith('.')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  return path.join(dir, 'dist/bin.js');
}
