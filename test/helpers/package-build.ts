/**
 * The package built and packed once per run, for every test that needs it as a user gets it (the docs
 * examples, the codegen consumers, the packed-tarball checks, the runtime suite). It is built from a private
 * copy of what the build reads, so a concurrent `npm run build` in the repository cannot change it under a
 * test. scripts/test-all.sh makes it once up front (`node --import tsx test/helpers/package-build.ts <dir>`)
 * and hands the paths on in AUTOS_MCP_TEST_BUILD and AUTOS_MCP_TEST_TARBALL; a file run on its own makes it
 * once for itself, in a temp dir removed at exit.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_ENV, TARBALL_ENV } from './build-env.js';
import { npmEnv } from './npm.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export { BUILD_ENV, TARBALL_ENV };

export interface PackageBuild {
  /**
   * The built package: package.json, README.md, docs/ and dist/ (with bin.js), and node_modules linked to
   * the repository's, so a consumer that links to it resolves its dependencies. Read only.
   */
  readonly dir: string;
  /** The `npm pack` of it: install it into a consumer project as a user does. */
  readonly tarball: string;
}

/** Builds and packs the package into `stage` (a new or empty directory). */
export function buildPackage(stage: string): PackageBuild {
  const dir = path.join(stage, 'build');
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'LICENSE']) {
    if (existsSync(path.join(ROOT, entry))) cpSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  for (const sub of ['src', 'docs']) cpSync(path.join(ROOT, sub), path.join(dir, sub), { recursive: true });
  cpSync(path.join(ROOT, 'scripts/bundle.mjs'), path.join(dir, 'scripts/bundle.mjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: npmEnv(),
  });
  assert.ok(existsSync(path.join(dir, 'dist/bin.js')), 'the build has dist/bin.js');
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', stage], {
    cwd: dir,
    encoding: 'utf8',
    env: npmEnv(),
  })
    .trim()
    .split('\n')
    .pop();
  assert.ok(name, 'npm pack printed no file name');
  return { dir, tarball: path.join(stage, name) };
}

let own: PackageBuild | undefined;

/** The run's package build (from the environment), or this process's own, made on first use. */
export function packageBuild(): PackageBuild {
  const dir = process.env[BUILD_ENV];
  const tarball = process.env[TARBALL_ENV];
  if (dir && tarball) {
    assert.ok(existsSync(path.join(dir, 'dist/bin.js')), `${BUILD_ENV}=${dir} has no dist/bin.js`);
    assert.ok(existsSync(tarball), `${TARBALL_ENV}=${tarball} does not exist`);
    return { dir, tarball };
  }
  if (own === undefined) {
    const stage = mkdtempSync(path.join(tmpdir(), 'autos-mcp-package-'));
    process.once('exit', () => rmSync(stage, { recursive: true, force: true }));
    own = buildPackage(stage);
  }
  return own;
}

/**
 * The run's packed tarball installed without dev dependencies into `dir`, made an ES-module consumer
 * project first, as a user installs the package. Returns the build (its `tarball` path, for checks of it).
 */
export function installPacked(dir: string): PackageBuild {
  const build = packageBuild();
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', build.tarball],
    {
      cwd: dir,
      stdio: 'ignore',
      env: npmEnv(),
    },
  );
  return build;
}

// scripts/test-all.sh: builds into the directory given and prints the two assignments for the shell.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const stage = process.argv[2];
  assert.ok(stage, 'usage: node --import tsx test/helpers/package-build.ts <empty directory>');
  const built = buildPackage(path.resolve(stage));
  process.stdout.write(`${BUILD_ENV}=${built.dir}\n${TARBALL_ENV}=${built.tarball}\n`);
}
