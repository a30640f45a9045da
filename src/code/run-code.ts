/**
 * `runCode`: agent-written code run as the body of an async function in a fresh QuickJS sandbox, with the
 * bridge (`mcp`, `servers`, `console`) as its only way out. The host drives the engine: it runs the code's
 * queued jobs in slices, waits for a bridge answer, the deadline or the signal, and ends the run at the
 * first of: the code's promise settled, the deadline, the signal, the heap cap, or nothing left that could
 * settle it. The sandbox is disposed at the end whatever happened; the host and the engine stay usable.
 */
import { setImmediate } from 'node:timers';
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from 'quickjs-emscripten-core';
import { McpError } from '../errors/index.js';
import { Bridge } from './bridge.js';
import { breakEngine, type Engine, engine, newSandbox } from './engine.js';
import { refusal } from './host-error.js';
import { type Limits, limitsOf } from './limits.js';
import { LogSink } from './log-sink.js';
import { PRELUDE, PRELUDE_FILE } from './prelude.js';
import { type ErrorInfo, errorInfoOf, lineOf, type Stop, stopError } from './run-error.js';
import { compile } from './source.js';
import type { RunCodeOptions, RunError, RunResult } from './types.js';

/** Jobs run between two turns of the host's event loop (so an abort or an answer is seen). */
const JOB_SLICE = 10_000;
/** Heap granted above the cap once the code has stopped, to read its error or value out. */
const READ_OUT_BYTES = 8 * 1024 * 1024;

/**
 * Runs `source` (JavaScript, or TypeScript: see `language`) as the body of an async function in a fresh
 * sandbox whose only way out is `options.catalog` through `mcp.call/search/describe` and `servers.*`.
 * Resolves with the value, the logs and the call records; a failure of the code is `result.error`, never
 * a rejection. Rejects only on invalid options (`McpError` kind `config`).
 *
 * @example
 * const { value } = await runCode('const r = await servers.demo.add({ a: 1, b: 2 }); return r.structuredContent;', { catalog });
 */
export async function runCode(source: string, options: RunCodeOptions): Promise<RunResult> {
  if (typeof source !== 'string') throw new McpError('config', 'runCode: the source must be a string');
  if (options === null || typeof options !== 'object' || typeof options.catalog?.call !== 'function')
    throw new McpError('config', 'runCode: options.catalog (search, describe, call) is required');
  if (
    options.allow !== undefined &&
    (!Array.isArray(options.allow) || !options.allow.every((glob) => typeof glob === 'string'))
  )
    throw new McpError('config', 'runCode: allow must be a list of "server.tool" globs');
  const limits = limitsOf(options);
  if (options.signal?.aborted) return { logs: [], calls: [], error: stopError('cancelled', limits) };
  const shared = await engine(limits);
  // The deadline starts once the engine is loaded: the one-time compile and the run's instance are not the code's time.
  return new Run(options, limits, Date.now() + limits.timeoutMs).run(shared, source);
}

class Run {
  readonly #options: RunCodeOptions;
  readonly #limits: Limits;
  readonly #deadline: number;
  readonly #bridge: Bridge;
  readonly #logs: LogSink;
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  readonly #handles: QuickJSHandle[] = [];
  #context: QuickJSContext | undefined;
  #runtime: QuickJSRuntime | undefined;
  #helpers: { toJson: QuickJSHandle; errorInfo: QuickJSHandle } | undefined;
  #engine: Engine | undefined;
  #finished = false;
  /** Set once the code's promise settled or it failed: no bridge request is sent after that. */
  #ending = false;
  #wake: (() => void) | undefined;
  #woken = false;

  constructor(options: RunCodeOptions, limits: Limits, deadline: number) {
    this.#options = options;
    this.#limits = limits;
    this.#deadline = deadline;
    this.#bridge = new Bridge(options.catalog, limits, options.allow, deadline);
    this.#logs = new LogSink(limits.maxLogChars);
  }

  async run(shared: Engine, source: string): Promise<RunResult> {
    this.#engine = shared;
    const poke = (): void => this.#poke();
    const timer = setTimeout(poke, Math.max(0, this.#deadline - Date.now()) + 1);
    this.#options.signal?.addEventListener('abort', poke, { once: true });
    let error: RunError | undefined;
    let value: unknown;
    try {
      const { runtime, context } = newSandbox(shared.module, this.#limits, () => this.#stop() !== undefined);
      this.#runtime = runtime;
      this.#context = context;
      const outcome = await this.#execute(source);
      if ('error' in outcome) error = outcome.error;
      else value = outcome.value;
    } catch (thrown) {
      // The host threw out of the engine (V8's stack overflowed inside the WebAssembly, or the module
      // aborted): this run's instance is no longer sound. The host itself is fine; other runs have their own.
      breakEngine(shared);
      error =
        thrown instanceof RangeError
          ? { kind: 'too_large', message: "the code nested deeper than the engine's stack allows" }
          : stopError('engine', this.#limits);
    } finally {
      clearTimeout(timer);
      this.#options.signal?.removeEventListener('abort', poke);
      this.#finished = true;
      this.#dispose();
    }
    const calls = await this.#bridge.close(
      error?.kind === 'timeout' || error?.kind === 'cancelled' ? error.kind : 'done',
    );
    const result: RunResult = { logs: this.#logs.lines, calls };
    if (error !== undefined) result.error = error;
    else if (value !== undefined) result.value = value;
    return result;
  }

  #stop(): Stop | undefined {
    if (this.#engine?.broken) return 'engine';
    if (this.#options.signal?.aborted) return 'cancelled';
    if (Date.now() > this.#deadline) return 'timeout';
    return undefined;
  }

  #poke(): void {
    this.#woken = true;
    this.#wake?.();
  }

  #keep(handle: QuickJSHandle): QuickJSHandle {
    this.#handles.push(handle);
    return handle;
  }

  async #execute(source: string): Promise<{ value: unknown } | { error: RunError }> {
    const context = this.#context as QuickJSContext;
    const failed = this.#installPrelude(context);
    if (failed !== undefined) return { error: failed };
    const compiled = await compile(context, source, this.#options.language);
    if (!('fn' in compiled)) {
      if (compiled.engineError === undefined) return { error: compiled.error };
      const info = this.#read(compiled.engineError);
      return { error: { kind: 'syntax', message: `${info.name}: ${info.message}`, ...lineOf(info) } };
    }
    const fn = this.#keep(compiled.fn);
    const started = context.callFunction(fn, context.undefined);
    if (started.error !== undefined) return { error: this.#failure(started.error) };
    const promise = this.#keep(started.value);
    for (;;) {
      const jobs = await this.#runJobs();
      if (jobs !== undefined) return { error: jobs };
      const stop = this.#stop();
      if (stop !== undefined) return { error: stopError(stop, this.#limits) };
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') return this.#valueOf(this.#keep(state.value));
      if (state.type === 'rejected') return { error: this.#failure(state.error) };
      if (this.#deferreds.size === 0)
        return {
          error: {
            kind: 'unsettled',
            message: 'the code awaits a promise that nothing can settle (no bridge call is in flight)',
          },
        };
      await this.#nextEvent();
    }
  }

  #installPrelude(context: QuickJSContext): RunError | undefined {
    const host = this.#keep(
      context.newFunction('host', (op, payload) => {
        const deferred = context.newPromise();
        if (this.#ending) {
          // A getter or toJSON run while the value or error is read out: the code has ended, nothing is sent.
          const refused = context.newString(JSON.stringify(refusal('cancelled', 'the code has ended')));
          deferred.reject(refused);
          refused.dispose();
          return deferred.handle;
        }
        this.#deferreds.add(deferred);
        void this.#bridge
          .handle(context.getString(op), context.getString(payload))
          .then((answer) => this.#settle(deferred, answer.ok, answer.json));
        return deferred.handle;
      }),
    );
    const hostLog = this.#keep(
      context.newFunction('hostLog', (level, line) =>
        this.#logs.add(context.getString(level), context.getString(line)) ? context.true : context.false,
      ),
    );
    const limits = this.#keep(context.newObject());
    for (const key of ['maxArgChars', 'maxValueChars', 'maxLogChars', 'maxCalls'] as const) {
      const number = context.newNumber(this.#limits[key]);
      context.setProp(limits, key, number);
      number.dispose();
    }
    // The prelude fails only when the deadline or the heap cap is already reached (a tiny memoryMb).
    const factory = context.evalCode(PRELUDE, PRELUDE_FILE, { type: 'global', strict: true });
    if (factory.error !== undefined) return this.#failure(factory.error);
    const made = context.callFunction(this.#keep(factory.value), context.undefined, host, hostLog, limits);
    if (made.error !== undefined) return this.#failure(made.error);
    const helpers = this.#keep(made.value);
    this.#helpers = {
      toJson: this.#keep(context.getProp(helpers, 'toJson')),
      errorInfo: this.#keep(context.getProp(helpers, 'errorInfo')),
    };
    return undefined;
  }

  /** Settles a bridge promise in the sandbox; an answer after the run ended is dropped. */
  #settle(deferred: QuickJSDeferredPromise, ok: boolean, json: string): void {
    if (this.#finished || !this.#deferreds.has(deferred)) return;
    this.#deferreds.delete(deferred);
    const context = this.#context as QuickJSContext;
    try {
      const text = context.newString(json);
      if (ok) deferred.resolve(text);
      else deferred.reject(text);
      text.dispose();
    } catch {
      // The heap cap was hit while copying the answer in: the next step of the run reports it.
      deferred.dispose();
    }
    this.#poke();
  }

  /** Runs the queued jobs in slices; an error (interrupt, heap cap) ends the run. */
  async #runJobs(): Promise<RunError | undefined> {
    const runtime = this.#runtime as QuickJSRuntime;
    while (runtime.hasPendingJob()) {
      const ran = runtime.executePendingJobs(JOB_SLICE);
      if (ran.error !== undefined) return this.#failure(ran.error);
      if (runtime.hasPendingJob()) await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.#stop() !== undefined) return undefined;
    }
    return undefined;
  }

  async #nextEvent(): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    this.#wake = undefined;
    this.#woken = false;
  }

  /** The error that ended the code (an uncaught throw, an interrupt, the heap cap) as a `RunError`. */
  #failure(handle: QuickJSHandle): RunError {
    this.#ending = true;
    const stop = this.#stop();
    if (stop !== undefined) {
      if (stop !== 'engine') handle.dispose();
      return stopError(stop, this.#limits);
    }
    const info = this.#read(handle);
    // QuickJS throws InternalError "out of memory", or a bare `null` when the heap is too full to make even
    // that (by then the code's frames, and so the memory, are gone: the two cannot be told apart after the
    // fact, and code that means to fail throws an Error, so an uncaught null counts as the cap).
    const cap = `the heap cap of ${this.#limits.memoryBytes / 1048576} MiB`;
    if (info.name === 'InternalError' && /out of memory/i.test(info.message))
      return { kind: 'too_large', message: `the code used more than ${cap}` };
    if (info.name === 'thrown value' && info.message === 'null')
      return { kind: 'too_large', message: `the code used more than ${cap} (or threw null)` };
    const error: RunError = { kind: 'thrown', message: `${info.name}: ${info.message}`, ...lineOf(info) };
    if (info.kind !== undefined || info.ref !== undefined)
      error.call = {
        ...(info.ref !== undefined ? { ref: info.ref } : {}),
        ...(info.kind !== undefined ? { kind: info.kind } : {}),
        ...(info.delivery !== undefined ? { delivery: info.delivery } : {}),
      };
    return error;
  }

  /** The code's returned value, copied out as JSON (the prelude refuses what is not plain data). */
  #valueOf(handle: QuickJSHandle): { value: unknown } | { error: RunError } {
    this.#ending = true;
    const context = this.#context as QuickJSContext;
    const helpers = this.#helpers as { toJson: QuickJSHandle };
    const json = context.callFunction(helpers.toJson, context.undefined, handle);
    if (json.error !== undefined) {
      const failure = this.#failure(json.error);
      if (failure.kind !== 'thrown') return { error: failure };
      const kind = failure.call?.kind === 'too_large' ? 'too_large' : 'not_plain';
      return { error: { kind, message: failure.message.replace(/^McpError: /, '') } };
    }
    const text = context.typeof(json.value) === 'string' ? context.getString(json.value) : undefined;
    json.value.dispose();
    return { value: text === undefined ? undefined : JSON.parse(text) };
  }

  /** Plain data about a thrown value, read by the prelude's `errorInfo` (bounded, never a host object). */
  #read(handle: QuickJSHandle): ErrorInfo {
    const context = this.#context as QuickJSContext;
    const runtime = this.#runtime as QuickJSRuntime;
    const unknown: ErrorInfo = { name: 'Error', message: '[an error that could not be read]' };
    runtime.setMemoryLimit(this.#limits.memoryBytes + READ_OUT_BYTES);
    try {
      const helpers = this.#helpers;
      if (helpers === undefined) return unknown;
      const read = context.callFunction(helpers.errorInfo, context.undefined, handle);
      if (read.error !== undefined) {
        read.error.dispose();
        return unknown;
      }
      const text = context.typeof(read.value) === 'string' ? context.getString(read.value) : '';
      read.value.dispose();
      return errorInfoOf(text) ?? unknown;
    } finally {
      handle.dispose();
      runtime.setMemoryLimit(this.#limits.memoryBytes);
    }
  }

  #dispose(): void {
    if (this.#engine?.broken) return; // never call into a broken module: drop it whole
    try {
      for (const deferred of this.#deferreds) deferred.dispose();
      this.#deferreds.clear();
      for (const handle of this.#handles.reverse()) if (handle.alive) handle.dispose();
      this.#context?.dispose();
      this.#runtime?.dispose();
    } catch {
      // A runtime that cannot be freed leaves the module in a state no later run should share.
      if (this.#engine !== undefined) breakEngine(this.#engine);
    }
  }
}
