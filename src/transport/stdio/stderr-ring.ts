/**
 * A bounded record of the server's stderr: the last `capacity` bytes, kept as a list of chunks so appending
 * is O(chunk) and memory never exceeds about `capacity` plus one chunk, however much the server writes.
 * stderr is logging, not an error signal (S25/basic/transports); we keep it only to explain failures.
 */
import { boundedTail, redact } from '../../internal/redact.js';

export const DEFAULT_STDERR_CAPACITY = 64 * 1024;

export class StderrRing {
  readonly #capacity: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Total bytes ever seen, including those dropped. */
  totalBytes = 0;

  constructor(capacity = DEFAULT_STDERR_CAPACITY) {
    this.#capacity = capacity;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    const piece = chunk.length > this.#capacity ? chunk.subarray(chunk.length - this.#capacity) : chunk;
    this.#chunks.push(piece);
    this.#bytes += piece.length;
    for (
      let first = this.#chunks[0];
      first !== undefined && this.#bytes - first.length >= this.#capacity;
      first = this.#chunks[0]
    ) {
      this.#chunks.shift();
      this.#bytes -= first.length;
    }
    // Many tiny writes would make shift() costly; fold them into one buffer now and then.
    if (this.#chunks.length > 64) this.#chunks = [Buffer.concat(this.#chunks, this.#bytes)];
  }

  /**
   * The kept text, redacted and cut to at most `maxChars` characters (from the end). Only its last
   * `maxChars` characters and a margin are redacted (see `redact`).
   */
  tail(maxChars = this.#capacity): string {
    if (this.#bytes === 0) return '';
    const text = Buffer.concat(this.#chunks, this.#bytes).toString('utf8');
    return boundedTail(redact(text, maxChars + 1, 'end'), maxChars);
  }
}
