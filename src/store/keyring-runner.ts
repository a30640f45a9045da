/**
 * Runs OS credential store calls in a child process that can be killed: the native binding blocks its
 * thread while D-Bus (or the Keychain) answers, and a bus that accepts a connection and never answers
 * would block it for a minute or more. One child per process, started on first use, reused, and
 * killed on a deadline (every pending call then fails with `kind: 'timeout'`; the next call starts a
 * new child). An idle child does not keep the process alive.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { McpError } from '../errors/index.js';
import { KEYRING_CHILD } from './keyring-child.js';

/** Default deadline of one credential store call. */
export const KEYRING_TIMEOUT_MS = 10_000;
/** Longest answer line read from the child (a store value is at most this, too). */
const MAX_ANSWER_CHARS = 8 * 1024 * 1024;

export type KeyringRequest =
  | { readonly op: 'get' | 'delete'; readonly service: string; readonly account: string }
  | { readonly op: 'set'; readonly service: string; readonly account: string; readonly secret: string }
  | { readonly op: 'list'; readonly service: string };

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/** A failure the child reported (the binding's error, never a secret). */
export class KeyringFailure extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'KeyringFailure';
    this.code = code;
  }
}

export class KeyringRunner {
  readonly #timeoutMs: number;
  #child: ChildProcessWithoutNullStreams | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #buffer = '';

  constructor(timeoutMs = KEYRING_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs;
  }

  call(request: KeyringRequest): Promise<unknown> {
    const child = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#expire(), this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#hold(true);
      child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  /** Ends the child (pending calls fail as closed). */
  close(): void {
    this.#stop(new McpError('closed', 'the OS credential store helper was closed'));
  }

  #start(): ChildProcessWithoutNullStreams {
    if (this.#child !== undefined) return this.#child;
    let binding: string;
    try {
      binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch {
      throw new McpError(
        'config',
        'the OS credential store binding (@napi-rs/keyring) is not installed: reinstall autos-mcp',
      );
    }
    const child = spawn(process.execPath, ['-e', KEYRING_CHILD, binding], {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.#read(chunk));
    child.stderr.resume(); // never shown: it could echo anything
    child.stdin.on('error', () => {});
    child.on('error', (error) =>
      this.#fail(
        child,
        new McpError(
          'config',
          `the OS credential store helper could not start (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        ),
      ),
    );
    child.on('exit', () =>
      this.#fail(child, new McpError('transport', 'the OS credential store helper ended unexpectedly')),
    );
    this.#child = child;
    this.#hold(false);
    return child;
  }

  /** Keeps the process alive only while a call waits for its answer. */
  #hold(busy: boolean): void {
    const child = this.#child;
    if (child === undefined) return;
    const method = busy ? 'ref' : 'unref';
    child[method]();
    for (const pipe of [child.stdout, child.stdin, child.stderr]) refPipe(pipe, method);
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    if (this.#buffer.length > MAX_ANSWER_CHARS) {
      this.#stop(new McpError('too_large', 'the OS credential store helper sent an answer over the bound'));
      return;
    }
    for (let newline = this.#buffer.indexOf('\n'); newline >= 0; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      let answer: { id?: number; ok?: boolean; value?: unknown; code?: string; message?: string };
      try {
        answer = JSON.parse(line) as typeof answer;
      } catch {
        continue;
      }
      const pending = answer.id === undefined ? undefined : this.#pending.get(answer.id);
      if (pending === undefined || answer.id === undefined) continue;
      this.#pending.delete(answer.id);
      clearTimeout(pending.timer);
      if (answer.ok === true) pending.resolve(answer.value);
      else pending.reject(new KeyringFailure(String(answer.message ?? 'failure'), String(answer.code ?? '')));
    }
    if (this.#pending.size === 0) this.#hold(false);
  }

  #expire(): void {
    this.#stop(
      new McpError(
        'timeout',
        `the OS credential store did not answer within ${this.#timeoutMs / 1000} s (is its D-Bus or keychain service hung?)`,
        { delivery: 'unknown' },
      ),
    );
  }

  #fail(child: ChildProcessWithoutNullStreams, error: McpError): void {
    if (this.#child === child) this.#stop(error);
  }

  #stop(error: McpError): void {
    const child = this.#child;
    this.#child = undefined;
    this.#buffer = '';
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(error);
    }
  }
}

/**
 * Calls `ref()` or `unref()` of a child's pipe where it has one: in Node a pipe is a `net.Socket`, which
 * does, though its type says only `Readable` or `Writable`; a runtime whose pipes have no such method is
 * left alone.
 */
function refPipe(pipe: object, method: 'ref' | 'unref'): void {
  const toggle: unknown = Reflect.get(pipe, method);
  if (typeof toggle === 'function') Reflect.apply(toggle, pipe, []);
}
