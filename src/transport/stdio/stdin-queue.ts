/**
 * The lines waiting for a server's stdin: written one at a time, in call order (the pipe's backpressure),
 * and bounded in bytes, so a server that never reads its stdin fails the connection instead of growing the
 * host's memory (`maxQueuedBytes`).
 */
import type { Writable } from 'node:stream';

/** Messages waiting to be written to a server's stdin, in bytes, before the connection fails. */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/** What one waiting line costs besides its text (its promises and closures), counted against the bound. */
const QUEUE_ENTRY_BYTES = 256;

export class StdinQueue {
  readonly max: number;
  #chain: Promise<void> = Promise.resolve();
  /** Bytes of lines waiting or being written (plus bookkeeping per line). */
  #bytes = 0;

  constructor(max = DEFAULT_MAX_QUEUED_BYTES) {
    this.max = max;
  }

  /** False when `line` would pass the bound while something already waits (a lone line always fits). */
  fits(line: string): boolean {
    return this.#bytes === 0 || this.#bytes + line.length + QUEUE_ENTRY_BYTES <= this.max;
  }

  /**
   * Runs `write` once the lines before it are written — at once when nothing waits, without a turn through
   * the chain. `write` gets `done`, to call when its bytes leave the queue (whatever the outcome).
   */
  push(line: string, write: (done: () => void) => Promise<void>): Promise<void> {
    const size = line.length + QUEUE_ENTRY_BYTES;
    const idle = this.#bytes === 0;
    this.#bytes += size;
    let counted = true;
    const done = (): void => {
      if (counted) this.#bytes -= size;
      counted = false;
    };
    const job = idle ? write(done) : this.#chain.then(() => write(done));
    this.#chain = job.catch(ignore);
    return job;
  }
}

/** A write to stdin that failed; `notSent` when the pipe broke, so no complete line reached the server. */
export interface WriteFailure {
  readonly error: Error;
  readonly code: string;
  readonly notSent: boolean;
}

/** Writes `line`, calls `done` as the write ends, and resolves with its failure (undefined: written). */
export function writeLine(
  stdin: Writable,
  line: string,
  done: () => void,
): Promise<WriteFailure | undefined> {
  return new Promise((resolve) => {
    stdin.write(line, (error) => {
      done();
      if (!error) return resolve(undefined);
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      // A pipe that broke mid-line never delivered a complete line, so the server cannot have acted on it.
      const notSent =
        code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
      resolve({ error, code, notSent });
    });
  });
}

function ignore(): void {}
