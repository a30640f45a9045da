/**
 * `builtBin()`: the path of a `dist/bin.js` built from the sources as they are now, at most once per test
 * run. The build goes to `<tmp>/autos-mcp-bin-<hash>/`, keyed by a hash of what the bundle reads (src/,
 * package.json, scripts/bundle.mjs): after an edit the hash changes and the next run builds anew (the
 * repository's own dist/ is never read, so a stale one cannot be tested), and every test file of a run
 * shares one build. Test files run as separate processes: the first to ask builds (under a lock
 * directory, created atomically); the others wait for its result, and a lock left by a process that died
 * is taken over. Under scripts/test-all.sh, which builds the package once for the whole run, that build's
 * bin is used instead.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUILD_ENV } from './build-env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What the bundle of the binary reads. */
const INPUTS = ['src', 'package.json', 'tsconfig.json', 'scripts/bundle.mjs'];
/** Longest wait for another process's build. */
const WAIT_MS = 300_000;

let built: Promise<string> | undefined;

/** The path of a `dist/bin.js` built from the current sources (built at most once per run). */
export function builtBin(): Promise<string> {
  // The whole run (scripts/test-all.sh) has built the package once already: its bin is the same sources'.
  const shared = process.env[BUILD_ENV];
  built ??= shared ? Promise.resolve(path.join(shared, 'dist', 'bin.js')) : buildOnce();
  return built;
}

/** sha256 over every input file's path and content. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const add = (relative: string): void => {
    const full = path.join(ROOT, relative);
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(path.join(relative, entry));
      return;
    }
    hash.update(`${relative}\0`);
    hash.update(readFileSync(full));
  };
  for (const input of INPUTS) add(input);
  return hash.digest('hex').slice(0, 16);
}

async function buildOnce(): Promise<string> {
  const dir = path.join(tmpdir(), `autos-mcp-bin-${sourceHash()}`);
  const bin = path.join(dir, 'dist/bin.js');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (existsSync(bin)) return bin;
    if (takeLock(lock)) {
      try {
        if (!existsSync(bin)) await build(dir);
        return bin;
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    if (Date.now() > deadline) throw new Error(`no build of the binary appeared in ${dir} (lock ${lock})`);
    await changeIn(path.dirname(dir), [path.basename(dir), path.basename(lock)], deadline);
  }
}

/** Creates the lock (atomic: one process wins); a lock whose process is gone is removed and retried. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const pid = Number(readFileSafe(path.join(lock, 'pid')));
  if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
    rmSync(lock, { recursive: true, force: true });
    return takeLock(lock);
  }
  return false;
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves when one of `names` changes in `dir` (`[build, lock]`: the build renamed into place, the lock removed). */
function changeIn(dir: string, names: readonly string[], deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, (_event, name) => {
      if (name !== null && names.includes(name.toString())) done();
    });
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    function done(): void {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
    // A change made before the watcher started: look once now that it listens (the build there, or the
    // lock gone).
    const [build, lock] = names as [string, string];
    if (existsSync(path.join(dir, build)) || !existsSync(path.join(dir, lock))) done();
  });
}

/** Bundles a copy of the sources into `<dir>/dist`, staged beside it and renamed into place whole. */
async function build(dir: string): Promise<void> {
  const stage = `${dir}.stage-${process.pid}`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  cpSync(path.join(ROOT, 'src'), path.join(stage, 'src'), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json']) cpSync(path.join(ROOT, file), path.join(stage, file));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/bundle.mjs')], { cwd: stage });
  renameSync(stage, dir);
}
