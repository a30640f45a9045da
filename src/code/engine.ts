/**
 * The engine: QuickJS compiled to WebAssembly (quickjs-emscripten, the release-sync variant with its own
 * `.wasm` file). The `.wasm` is read and compiled once per process, on first use; each run instantiates it
 * afresh over a WebAssembly memory of its own whose `maximum` is the run's heap cap plus room for the
 * engine's own data, then gets a runtime and context with the heap cap, the stack cap and an interrupt
 * handler. QuickJS's own count (`setMemoryLimit`) misses memory: a fast array's elements, and the
 * allocator's overhead (100,000 pending promises count under 64 MiB there and take ~200 MiB). The memory's
 * maximum is the bound the WebAssembly engine itself enforces, whatever QuickJS counts, and a run's memory
 * is freed with its instance, so no run can leave the process holding gigabytes (before, a 64 MiB cap let
 * a run of arrays grow the shared module to 2 GiB, kept for the process's life). Compiling
 * costs ~10 ms once; an instance, a runtime and a context ~5-15 ms a run (bench/groups/code.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type {
  CustomizeVariantOptions,
  QuickJSContext,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { Limits } from './limits.js';

type WasmModule = Exclude<NonNullable<CustomizeVariantOptions['wasmModule']>, () => unknown>;
type WasmMemory = Exclude<NonNullable<CustomizeVariantOptions['wasmMemory']>, () => unknown>;
/** The two parts of the WebAssembly API used here (the project's `lib` has no DOM, where they are typed). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}

/** A run's own instance of the module, and whether it broke (then the run calls into it no more). */
export interface Engine {
  readonly module: QuickJSWASMModule;
  broken: boolean;
}

/** WebAssembly pages (64 KiB): the module's initial memory (16 MiB, its declared minimum) and the most. */
const PAGE = 64 * 1024;
const INITIAL_PAGES = 256;
const MOST_PAGES = 32 * 1024;
/**
 * Room in a run's memory besides the heap cap: the module's initial 16 MiB (its static data, its stack and
 * the start of the heap) and 8 MiB to read a result or an error out past the cap (run-code.ts).
 */
const ENGINE_ROOM_BYTES = 24 * 1024 * 1024;

interface Loaded {
  readonly wasm: WasmApi;
  instantiate(memory: WasmMemory): Promise<QuickJSWASMModule>;
}

/** The variant object, whether the import gave it as `default` or wrapped once more (CommonJS interop). */
function variantOf(imported: unknown): QuickJSSyncVariant {
  let value = imported;
  for (let depth = 0; depth < 3 && typeof value === 'object' && value !== null && !('type' in value); depth++)
    value = Reflect.get(value, 'default');
  return value as QuickJSSyncVariant;
}

let loading: Promise<Loaded> | undefined;

/** The compiled module and the means to instantiate it (both packages imported only then). */
function load(): Promise<Loaded> {
  if (loading === undefined) {
    const started = (async (): Promise<Loaded> => {
      const wasm: WasmApi = Reflect.get(globalThis, 'WebAssembly');
      const [{ newQuickJSWASMModuleFromVariant, newVariant }, imported] = await Promise.all([
        import('quickjs-emscripten-core'),
        import('@jitl/quickjs-wasmfile-release-sync'),
      ]);
      // The `.wasm` of the installed variant package, found as Node finds the package (the `./wasm` export).
      const file = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
      const compiled = await wasm.compile(await readFile(file));
      const base = variantOf(imported);
      return {
        wasm,
        instantiate: (memory) =>
          newQuickJSWASMModuleFromVariant(
            // `log`: the engine's own messages (an abort when a full memory leaves QuickJS unable to free a
            // runtime) are not the host's output; the run reports `too_large` or `engine` instead.
            newVariant(base, { wasmModule: compiled, wasmMemory: memory, log: () => {} }),
          ),
      };
    })();
    started.catch(() => {
      if (loading === started) loading = undefined;
    });
    loading = started;
  }
  return loading;
}

/** A fresh instance of the engine for one run, its memory bounded by the run's heap cap. */
export async function engine(limits: Limits): Promise<Engine> {
  const loaded = await load();
  const pages = Math.ceil((limits.memoryBytes + ENGINE_ROOM_BYTES) / PAGE);
  const memory = new loaded.wasm.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.min(MOST_PAGES, Math.max(INITIAL_PAGES, pages)),
  });
  return { module: await loaded.instantiate(memory), broken: false };
}

/**
 * Marks a run's instance as broken. Called when the host itself threw out of the engine (V8's own stack
 * overflowed inside the WebAssembly, which QuickJS's stack check does not always see first: a deeply
 * nested `JSON.parse`/`stringify` or source), or when freeing a runtime failed: the instance's stack pointer
 * and heap can no longer be trusted, so the run calls into it no more and leaves it to the garbage collector.
 * Other runs have instances of their own.
 */
export function breakEngine(broken: Engine): void {
  broken.broken = true;
}

/** A fresh runtime and context, bounded by `limits`; `interrupted()` is asked regularly while code runs. */
export function newSandbox(
  module: QuickJSWASMModule,
  limits: Limits,
  interrupted: () => boolean,
): { runtime: QuickJSRuntime; context: QuickJSContext } {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.maxStackBytes);
  runtime.setInterruptHandler(interrupted);
  // No module loader: `import()` rejects and a static import is a syntax error in a function body.
  runtime.removeModuleLoader();
  const context = runtime.newContext();
  return { runtime, context };
}
