/**
 * The engine: QuickJS compiled to WebAssembly (quickjs-emscripten, the release-sync variant with its own
 * `.wasm` file), loaded once per process on first use and shared by every run. Each run gets a fresh runtime
 * and context of its own with the heap cap, the stack cap and an interrupt handler, and disposes both at its
 * end, so nothing of one run is visible to the next. Loading the module costs ~20 ms once; a runtime and
 * context ~1-6 ms (bench/groups/code.ts).
 */
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { Limits } from './limits.js';

/** The shared module, and whether it broke (then no run calls into it again). */
export interface Engine {
  readonly module: QuickJSWASMModule;
  broken: boolean;
}

let loading: Promise<Engine> | undefined;
let current: Engine | undefined;

/** The shared WebAssembly module, loaded on first use (both packages imported only then). */
export function engine(): Promise<Engine> {
  if (loading === undefined) {
    const load = (async (): Promise<Engine> => {
      const { newQuickJSWASMModuleFromVariant } = await import('quickjs-emscripten-core');
      // The variant finds its own `.wasm` beside its module file (from the installed package).
      const module = await newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync'));
      current = { module, broken: false };
      return current;
    })();
    load.catch(() => {
      if (loading === load) loading = undefined;
    });
    loading = load;
  }
  return loading;
}

/**
 * Marks `broken` as broken and forgets it, so the next run loads a new module. Called when the host itself
 * threw out of the engine (V8's own stack overflowed inside the WebAssembly, which QuickJS's stack check
 * does not always see first: a deeply nested `JSON.parse`/`stringify` or source), or when freeing a
 * runtime failed: the module's stack pointer and heap can no longer be trusted. Runs still using it end at
 * their next step with kind `engine`; the old module is left to the garbage collector.
 */
export function breakEngine(broken: Engine): void {
  broken.broken = true;
  if (current === broken) {
    current = undefined;
    loading = undefined;
  }
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
