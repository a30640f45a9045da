/**
 * Where the worker thread's entry file is, and how to start it. Built, this module is part of
 * `dist/worker.js` (or of a chunk in `dist/chunks/`) and the entry is the bundle `dist/worker-thread.js`,
 * started directly. From the sources (tests, tsx) it is `src/worker/thread.ts`; Node 20 loads a worker's
 * entry before the `--import tsx` the thread inherits has registered its hooks, so the thread starts with a
 * one-line script that imports the entry once they are in place.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The first argument of `new Worker` and whether it is code (`eval`) rather than a file. */
export interface ThreadEntry {
  readonly entry: string | URL;
  readonly eval: boolean;
}

let cached: ThreadEntry | undefined;

/** How to start a worker thread. */
export function threadEntry(): ThreadEntry {
  if (cached !== undefined) return cached;
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = JSON.stringify(new URL('./thread.ts', here).href);
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    cached = {
      entry: `import(${tsx}).then((tsx) => { tsx.register(); return import(${source}); });`,
      eval: true,
    };
  } else {
    const beside = new URL('./worker-thread.js', here);
    cached = {
      entry: existsSync(fileURLToPath(beside)) ? beside : new URL('../worker-thread.js', here),
      eval: false,
    };
  }
  return cached;
}
