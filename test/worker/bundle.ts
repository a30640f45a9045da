/**
 * Builds `autos-mcp/worker` the way the package ships it (esbuild, as scripts/bundle.mjs: `worker.js` and
 * `worker-thread.js` side by side, shared code in `chunks/`) into .tmp, for tests and the bench that need
 * the built thread entry: it starts in ~30 ms, where the sources through tsx take ~200 ms per thread.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The module the bundle exports (the public API of src/worker/index.ts). */
export type WorkerModule = typeof import('../../src/worker/index.js');

/** Builds into `.tmp/<dir>` and imports the built `worker.js`. */
export async function buildWorkerBundle(dir = 'worker-dist'): Promise<WorkerModule> {
  const outdir = `${ROOT}.tmp/${dir}`;
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
  return (await import(`${outdir}/worker.js`)) as WorkerModule;
}
