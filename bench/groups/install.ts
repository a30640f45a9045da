// Install footprint: `npm pack` this repo, install the tarball with `--omit=dev` into a fresh temp project, and
// measure node_modules (apparent bytes, package count); the same for @modelcontextprotocol/client.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { npmEnv } from '../../test/helpers/npm.js';
import type { Row, Section } from '../model.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NPM_FLAGS = ['--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** Apparent size in bytes and number of packages (directories holding a package.json) under node_modules. */
export async function footprint(nodeModules: string): Promise<{ bytes: number; packages: number }> {
  let bytes = 0;
  let packages = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path, depth + 1);
      } else if (entry.isFile()) {
        bytes += (await stat(path)).size;
      }
    }
  };
  const countPackages = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        await countPackages(path);
        continue;
      }
      packages += 1;
      await countPackages(join(path, 'node_modules'));
    }
  };
  await walk(nodeModules, 0);
  await countPackages(nodeModules);
  return { bytes, packages };
}

async function installInto(spec: string): Promise<{ bytes: number; packages: number }> {
  const project = await mkdtemp(join(tmpdir(), 'autos-bench-install-'));
  try {
    await writeFile(
      join(project, 'package.json'),
      '{"name":"bench-install","version":"0.0.0","private":true}\n',
    );
    await run('npm', ['install', ...NPM_FLAGS, spec], { cwd: project, env: npmEnv() });
    return await footprint(join(project, 'node_modules'));
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}

/** Runs the install-footprint group; `includeAutos` is false when dist/ is missing (nothing to pack). */
export async function runInstall(options: {
  includeAutos: boolean;
  log: (line: string) => void;
}): Promise<Section> {
  const size: Row = { label: 'runtime install size', unit: 'MB', lowerIsBetter: true, cells: {} };
  const count: Row = { label: 'runtime packages', unit: 'packages', lowerIsBetter: true, cells: {} };
  const record = (name: string, f: { bytes: number; packages: number }) => {
    size.cells[name] = { value: f.bytes / 1e6 };
    count.cells[name] = { value: f.packages };
  };
  if (options.includeAutos) {
    const packDir = await mkdtemp(join(tmpdir(), 'autos-bench-pack-'));
    try {
      const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packDir], {
        cwd: REPO,
        env: npmEnv(),
      });
      const tarballName = stdout.trim().split('\n').at(-1);
      if (!tarballName)
        throw new Error(`npm pack printed no tarball name (stdout: ${JSON.stringify(stdout)})`);
      const tarball = join(packDir, tarballName);
      record('autos-mcp', await installInto(tarball));
      options.log('install: autos-mcp');
    } finally {
      await rm(packDir, { recursive: true, force: true });
    }
  }
  const clientPkg = JSON.parse(
    await readFile(join(REPO, 'node_modules/@modelcontextprotocol/client/package.json'), 'utf8'),
  ) as { version: string };
  record('sdk-v2', await installInto(`@modelcontextprotocol/client@${clientPkg.version}`));
  options.log('install: sdk-v2');
  for (const row of [size, count]) {
    const sdk = row.cells['sdk-v2']?.value;
    for (const cell of Object.values(row.cells)) if (cell && sdk) cell.ratioVsSdkV2 = cell.value / sdk;
  }
  return {
    id: 'install',
    title: 'Install footprint',
    description:
      '`npm pack` of this repo, then `npm install --omit=dev --no-audit --no-fund --prefer-offline <tarball>` in a fresh ' +
      `project; node_modules apparent size (MB = 10^6 bytes) and package count. SDK v2 = @modelcontextprotocol/client@${clientPkg.version}.`,
    rows: [size, count],
  };
}
