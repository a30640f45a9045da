// autos-mcp/worker, loaded from the built `dist/worker.js` (with `dist/worker-thread.js` beside it) so the
// bench measures what ships. Until the package build has that entry, the same two entries are bundled
// into .tmp/bench-worker with the options of scripts/bundle.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built entry point this adapter loads when it exists. */
export const WORKER_DIST = new URL('../../dist/worker.js', import.meta.url);

/** The slice of autos-mcp/worker's public API the bench uses. */
export interface WorkerModule {
  open(config: {
    command: string;
    args: string[];
    protocolVersion: string;
    timeoutMs: number;
  }): Promise<string>;
  callTool(id: string, name: string, args: Record<string, unknown>): Promise<unknown>;
  close(id: string): Promise<unknown>;
}

let loaded: Promise<{ module: WorkerModule; source: string }> | undefined;

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const outdir = `${ROOT}.tmp/bench-worker`;
  await build({
    absWorkingDir: ROOT,
    entryPoints: { worker: 'src/worker/index.ts', 'worker-thread': 'src/worker/thread.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external: ['undici', 'oauth4webapi', '@napi-rs/keyring'],
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  return `${outdir}/worker.js`;
}

/** The worker module and where it came from (`dist/worker.js`, or the .tmp bundle). */
export function loadWorker(): Promise<{ module: WorkerModule; source: string }> {
  loaded ??= (async () => {
    const built = existsSync(fileURLToPath(WORKER_DIST)) && existsSync(`${ROOT}dist/worker-thread.js`);
    const path = built ? fileURLToPath(WORKER_DIST) : await bundle();
    const module = (await import(path)) as WorkerModule;
    return { module, source: built ? 'dist/worker.js' : '.tmp/bench-worker (dist has no worker entry yet)' };
  })();
  return loaded;
}
