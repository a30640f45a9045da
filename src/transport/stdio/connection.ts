/**
 * `StdioConnection`: one MCP server as a child process speaking line-delimited JSON on stdin/stdout
 * (S25/basic/transports, S26/basic/transports/stdio). Bytes and processes only: the JSON-RPC engine above
 * does initialize, correlation and cancellation. Shutdown follows the spec's order (see terminate.ts).
 */
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { isMainThread } from 'node:worker_threads';
import {
  debugNote,
  newConnectionId,
  stdioExited,
  stdioSpawned,
  tracingStdioExit,
} from '../../diagnostics/publish.js';
import { McpError, type McpErrorOptions } from '../../errors/index.js';
import type { SecretRegistration } from '../../internal/known-secrets.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { Connection, ConnectionCloseReport, ConnectionEvents, SendOptions } from '../connection.js';
import type { StdioTransportOptions } from '../options.js';
import { rootExited, track, untrack } from './exit-hook.js';
import { isMessage, LineDecoder, type SkippedLine } from './framing.js';
import { ServerTree } from './server-tree.js';
import { SkippedLines } from './skipped.js';
import { commandTarget, spawnServer } from './spawn.js';
import { StderrRing } from './stderr-ring.js';
import { StdinQueue, type WriteFailure, writeLine } from './stdin-queue.js';
import { type ExitInfo, exitSentence, NOT_STARTED, terminate } from './terminate.js';
import { STDIO_TRAITS } from './traits.js';

const DEFAULT_GRACE_MS = 2000;
/** Errors carry a shorter tail than the CloseReport: they travel through logs and worker messages. */
const ERROR_TAIL_CHARS = 8 * 1024;
/** After the server exits, how long we wait for stdout to drain before reporting (a grandchild may hold it open). */
const STDOUT_DRAIN_MS = 200;
/** After a broken pipe, how long we wait for the server's exit, to report that instead of the pipe. */
const BROKEN_PIPE_WAIT_MS = 500;

type State = 'new' | 'starting' | 'open' | 'failed_start';

/** Events before `start()`: nothing can arrive then, so nothing is delivered. */
const NO_EVENTS: ConnectionEvents = { message: () => undefined, closed: () => undefined };

/** A connection to a stdio MCP server. Create, `start(events)`, `send()`, `close()`. */
export class StdioConnection implements Connection {
  readonly kind = 'stdio';
  readonly traits = STDIO_TRAITS;
  readonly target: string;
  readonly process = { pid: undefined as number | undefined };
  readonly #options: StdioTransportOptions;
  readonly #decoder: LineDecoder;
  readonly #stderr = new StderrRing();
  readonly #skipped: SkippedLines;
  /** True once the server sent a message: before that, an exit is an exit during startup. */
  #answered = false;
  #state: State = 'new';
  #starting: Promise<void> | undefined;
  #child: ChildProcess | undefined;
  #stdin: Writable | undefined;
  #tree: ServerTree | undefined;
  #events: ConnectionEvents = NO_EVENTS;
  /** True once `closed` was emitted or `close()` or `destroy()` was called: no event is delivered after that. */
  #silenced = false;
  /** `destroy()` SIGKILLed the server while it ran. */
  #killed = false;
  #exit: ExitInfo | undefined;
  #exited!: Promise<void>;
  #markExited!: () => void;
  #stdoutEnded!: Promise<void>;
  #teardown: Promise<ConnectionCloseReport> | undefined;
  readonly #queue: StdinQueue;
  /** The connection's id in diagnostics events. */
  readonly #id: string;
  readonly #secrets: SecretRegistration | undefined;
  /** When the process was spawned (performance.now()), for the exit event's run time. */
  #spawnedAt = 0;

  /**
   * `ids.connectionId`: the client's id for this connection in diagnostics events (default: a new one);
   * `ids.secrets`: its known secrets (see `openConnection`), released once the close report is made.
   */
  constructor(
    options: StdioTransportOptions,
    ids: { connectionId?: string | undefined; secrets?: SecretRegistration | undefined } = {},
  ) {
    this.#options = options;
    this.#id = ids.connectionId ?? newConnectionId();
    this.#secrets = ids.secrets;
    this.target = commandTarget(options.command, options.args);
    // JSON that is not a JSON-RPC message (a JSON log line) is skipped like any other noise.
    this.#decoder = new LineDecoder(options.maxMessageBytes, isMessage);
    this.#queue = new StdinQueue(options.maxQueuedBytes);
    this.#skipped = new SkippedLines(options.maxSkippedLines, options.maxSkippedBytes);
  }

  /** The server's process id once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Spawns the server. Resolves once it runs (it does not wait for the server to be ready). */
  start(events: ConnectionEvents): Promise<void> {
    if (this.#state !== 'new')
      return Promise.reject(new McpError('config', `start() on ${this.target} called twice`));
    // Closed or destroyed first: spawning now would start a process nobody ends.
    if (this.#teardown !== undefined) return Promise.reject(this.#closedError('start'));
    this.#state = 'starting';
    this.#events = events;
    this.#starting = this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    let child: ChildProcess;
    try {
      child = await spawnServer(this.#options);
    } catch (error) {
      this.#state = 'failed_start';
      throw error;
    }
    const { stdin, stdout, pid } = child;
    if (stdin === null || stdout === null || pid === undefined) {
      // spawnServer asks for piped stdin/stdout and resolves only once the process runs.
      this.#state = 'failed_start';
      child.kill('SIGKILL');
      throw new McpError('spawn', `${this.target}: the process started without stdin/stdout pipes`);
    }
    this.#child = child;
    this.#stdin = stdin;
    this.process.pid = pid;
    this.#state = 'open';
    const tree = new ServerTree(pid);
    this.#tree = tree;
    track(tree);
    this.#spawnedAt = performance.now();
    stdioSpawned(this.#id, this.target, pid);
    this.#exited = new Promise((resolve) => {
      this.#markExited = resolve;
    });
    this.#stdoutEnded = new Promise((resolve) => stdout.once('close', resolve));
    stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    // stderr must always be drained or a chatty server blocks on a full pipe; we keep a bounded tail.
    child.stderr?.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    // Broken pipes surface through send()'s callback; without a listener they would crash the host.
    stdin.on('error', (error: NodeJS.ErrnoException) => debugNote(this.#id, `stdin ${error.code}`));
    stdout.on('error', () => undefined);
    child.stderr?.on('error', () => undefined);
    child.on('exit', (code, signal) => this.#onExit(code, signal));
    stdout.once('end', () => this.#onStdoutEnd());
  }

  /** Writes one message as a line. Lines are written one at a time, in call order: the pipe buffer bounds memory. */
  send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.#state !== 'open' || this.#silenced || this.#exit !== undefined) {
      return Promise.reject(this.#closedError('send'));
    }
    let line: string;
    try {
      // JSON.stringify escapes every newline inside strings, so one message is always exactly one line.
      line = `${JSON.stringify(message)}\n`;
    } catch (cause) {
      const what = 'method' in message ? message.method : 'an answer';
      return Promise.reject(
        new McpError('config', `${what} to ${this.target}: it is not JSON data (a BigInt or a cycle?)`, {
          cause,
        }),
      );
    }
    if (!this.#queue.fits(line)) {
      const error = new McpError(
        'transport',
        `${this.target} does not read its stdin: more than ${this.#queue.max} bytes of messages are waiting (maxQueuedBytes)`,
        this.#errorOptions(),
      );
      // This message is refused first (not_sent), then the connection fails for what is already waiting.
      setImmediate(() => this.#fail(error));
      return Promise.reject(new McpError('transport', error.message, { delivery: 'not_sent' }));
    }
    return this.#queue.push(line, (done) => this.#write(line, options.signal, done));
  }

  /** Writes one line; `done` takes it out of the queue once the write is over, whatever its outcome. */
  async #write(line: string, signal: AbortSignal | undefined, done: () => void): Promise<void> {
    const stdin = this.#silenced || this.#exit !== undefined ? undefined : this.#stdin;
    if (signal?.aborted || stdin === undefined) {
      done();
      if (signal?.aborted)
        throw new McpError('cancelled', `send to ${this.target} cancelled before it was written`);
      throw this.#closedError('send');
    }
    const failure = await writeLine(stdin, line, done);
    if (failure !== undefined) throw await this.#writeError(failure);
  }

  async #writeError({ error, code, notSent }: WriteFailure): Promise<McpError> {
    if (this.#silenced || this.#exit !== undefined) return this.#closedError('send', error);
    // At startup a broken pipe is usually a server that is exiting: wait briefly and say that.
    if (notSent && !this.#answered && (await this.#exitedWithin(BROKEN_PIPE_WAIT_MS)) && !this.#silenced) {
      const sentence = exitSentence(this.target, this.#child?.pid, this.#exit, this.#answered);
      return new McpError('closed', sentence, {
        ...this.#errorOptions(true),
        delivery: 'not_sent',
        cause: error,
      });
    }
    const why = notSent ? `its stdin is closed (${code})` : `the write failed (${code})`;
    const delivery = notSent ? 'not_sent' : 'unknown';
    return new McpError('transport', `write to ${this.target}: ${why}`, { delivery, cause: error });
  }

  negotiated(): void {} // stdio has no per-session state to learn

  /**
   * Closes stdin, waits, then SIGTERM and SIGKILL of the process group and known descendants. Idempotent.
   * `graceMs` overrides the configured grace period for this close (the first call decides).
   */
  close(options: { graceMs?: number } = {}): Promise<ConnectionCloseReport> {
    this.#silenced = true;
    return this.#tearDown(options.graceMs ?? this.#options.graceMs ?? DEFAULT_GRACE_MS, false);
  }

  /**
   * SIGKILLs the process group and every known descendant now, without closing stdin or waiting. A close
   * already running is cut short (its waits end as the processes die); `close()` afterwards resolves with
   * the report once the kernel has reaped them. Idempotent; before the spawn, the spawn is ended as it lands.
   */
  destroy(): void {
    this.#silenced = true;
    if (this.#tree !== undefined && this.#exit === undefined) this.#killed = true;
    this.#tree?.killNow();
    this.#tearDown(0, true).catch(() => undefined);
  }

  #tearDown(graceMs: number, immediate: boolean): Promise<ConnectionCloseReport> {
    this.#teardown ??= this.#shutdown(graceMs, immediate).finally(() => this.#secrets?.release());
    return this.#teardown;
  }

  async #shutdown(graceMs: number, immediate = false): Promise<ConnectionCloseReport> {
    if (this.#starting) await this.#starting.catch(() => undefined);
    const child = this.#child;
    const tree = this.#tree;
    if (!child || !tree) {
      return { process: { ...NOT_STARTED } };
    }
    const result = await terminate({
      child,
      tree,
      graceMs,
      exited: this.#exited,
      hasExited: () => this.#exit !== undefined,
      target: this.target,
      connectionId: this.#id,
      immediate,
    });
    // The guard is reaped by the loop of the thread that started it: a worker thread may end right after
    // this close, so it waits; the main thread's loop outlives the close and reaps it without delaying it.
    const guardReaped = untrack(tree);
    if (!isMainThread) await guardReaped;
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    const skippedStdout = this.#skipped.report();
    const report = {
      pid: child.pid,
      activeProcesses: result.activeProcesses,
      exitCode: this.#exit?.code ?? null,
      signal: this.#exit?.signal ?? null,
      // A destroy() that landed while the server ran ended it, whatever the close sequence saw after.
      ended: this.#killed ? 'sigkill' : result.ended,
      stderrTail: this.#stderr.tail(),
      ...(skippedStdout === undefined ? {} : { skippedStdout }),
    };
    return { process: report };
  }

  #onStdout(chunk: Buffer): void {
    if (this.#silenced) return;
    const { values, skipped, error } = this.#decoder.feed(chunk);
    if (skipped !== undefined && this.#onSkipped(skipped)) return;
    for (const value of values) {
      if (this.#silenced) return;
      this.#answered = true;
      this.#events.message(value);
    }
    if (error) {
      this.#fail(new McpError('too_large', `${this.target}: ${error.message}`, this.#errorOptions()));
    }
  }

  /** Records skipped lines; true when that passed a bound and the connection failed. */
  #onSkipped(lines: readonly SkippedLine[]): boolean {
    const over = this.#skipped.recordAll(lines, (text) => this.#events.diagnostic?.(text));
    if (over !== undefined)
      this.#fail(new McpError('protocol', `${this.target} ${over}`, this.#errorOptions()));
    return over !== undefined;
  }

  /** What was tolerated, for the messages of calls that fail: the stdout lines skipped. */
  note(): string | undefined {
    return this.#skipped.sentence();
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    if (this.#tree !== undefined) {
      this.#tree.markRootExited();
      rootExited(this.#tree);
    }
    this.#markExited();
    const pid = this.#child?.pid;
    if (pid !== undefined && tracingStdioExit()) {
      stdioExited({
        connectionId: this.#id,
        target: this.target,
        pid,
        exitCode: code,
        signal,
        durationMs: performance.now() - this.#spawnedAt,
        startup: !this.#answered,
        closing: this.#silenced,
      });
    }
    if (this.#silenced) return;
    // Deliver what the server wrote before exiting, then report; a grandchild holding stdout must not stall us.
    void this.#drained().then(() =>
      this.#fail(
        new McpError(
          'closed',
          exitSentence(this.target, this.#child?.pid, this.#exit, this.#answered),
          this.#errorOptions(true),
        ),
      ),
    );
  }

  /** True once the server exited and its output drained, if that happens within `ms`. */
  async #exitedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    await Promise.race([this.#exited, late]);
    clearTimeout(timer);
    if (this.#exit === undefined) return false;
    await this.#drained();
    return true;
  }

  /** Once stdout ended, or after a short wait (a grandchild may hold it open). */
  #drained(): Promise<void> {
    const late = new Promise<void>((resolve) => setTimeout(resolve, STDOUT_DRAIN_MS).unref());
    return Promise.race([this.#stdoutEnded, late]);
  }

  /** "The server MAY shut down by closing stdout" (S25/basic/lifecycle): treat it as the end of the connection. */
  #onStdoutEnd(): void {
    setTimeout(() => {
      if (this.#silenced || this.#exit !== undefined) return;
      this.#fail(new McpError('closed', `${this.target} closed its stdout`, this.#errorOptions()));
    }, STDOUT_DRAIN_MS).unref();
  }

  /** Fails the connection: report once, then tear the process tree down in the background. */
  #fail(error: McpError): void {
    if (this.#silenced) return;
    this.#silenced = true;
    try {
      this.#events.closed(error);
    } finally {
      this.#teardown ??= this.#shutdown(this.#options.graceMs ?? DEFAULT_GRACE_MS);
    }
  }

  /** Options of an error about this server (its message names `target`); `exited`: it reports the exit. */
  #errorOptions(exited = false): McpErrorOptions & { delivery: 'unknown' } {
    const tail = this.#stderr.tail(ERROR_TAIL_CHARS);
    const exit = exited ? this.#exit : undefined;
    return {
      delivery: 'unknown',
      target: this.target,
      ...(tail ? { stderrTail: tail } : {}),
      ...(exit ? { exit } : {}),
    };
  }

  #closedError(operation: string, cause?: unknown): McpError {
    const state = this.#state === 'new' || this.#state === 'starting' ? 'not started' : 'closed';
    const options =
      cause === undefined ? { delivery: 'not_sent' as const } : { delivery: 'not_sent' as const, cause };
    return new McpError('closed', `${operation} on ${this.target}: connection ${state}`, options);
  }
}
