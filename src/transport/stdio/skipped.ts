/**
 * Lines a stdio server wrote to stdout that are not MCP messages: a banner, a `console.log` of a
 * dependency, a JSON log line. The spec forbids them (S25/basic/transports); the clients people compare us
 * with skip them, so we do too — counted, kept as a bounded, redacted tail, and reported where a person
 * looks. Past the bounds the connection fails: a server that floods stdout gets no free loop.
 */
import type { SkippedStdout } from '../connection.js';
import type { SkippedLine } from './framing.js';

/** Default bounds: generous for a chatty server over a long session, small against a flood. */
const DEFAULT_MAX_SKIPPED_LINES = 1000;
const DEFAULT_MAX_SKIPPED_BYTES = 1024 * 1024;
/** Previews kept for reports. */
const TAIL_LINES = 5;

export class SkippedLines {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #tail: string[] = [];
  #lines = 0;
  #bytes = 0;
  /** A bound was passed (the connection failed saying what was skipped). */
  #overflowed = false;

  constructor(maxLines = DEFAULT_MAX_SKIPPED_LINES, maxBytes = DEFAULT_MAX_SKIPPED_BYTES) {
    this.#maxLines = maxLines;
    this.#maxBytes = maxBytes;
  }

  /** Records one skipped line; returns a reason when a bound is now exceeded. */
  record(bytes: number, preview: string): string | undefined {
    this.#lines++;
    this.#bytes += bytes;
    this.#tail.push(preview);
    if (this.#tail.length > TAIL_LINES) this.#tail.shift();
    if (this.#lines > this.#maxLines) return `more than ${this.#maxLines} lines (maxSkippedLines)`;
    if (this.#bytes > this.#maxBytes) return `more than ${this.#maxBytes} bytes (maxSkippedBytes)`;
    return undefined;
  }

  /**
   * Records `lines`, telling `diagnostic` of each; the sentence of the connection's failure when a bound is
   * now passed (its last line is the one that passed it), else undefined.
   */
  recordAll(lines: readonly SkippedLine[], diagnostic: (text: string) => void): string | undefined {
    for (const line of lines) {
      const over = this.record(line.bytes, line.preview);
      diagnostic(`skipped a stdout line that is not an MCP message: ${line.preview}`);
      if (over !== undefined) {
        this.#overflowed = true;
        return `wrote ${over} to stdout that are not MCP messages; the last: ${line.preview}`;
      }
    }
    return undefined;
  }

  get count(): number {
    return this.#lines;
  }

  report(): SkippedStdout | undefined {
    if (this.#lines === 0) return undefined;
    return { lines: this.#lines, bytes: this.#bytes, last: [...this.#tail] };
  }

  /**
   * One sentence for error messages, or undefined when nothing was skipped — or after an overflow, whose
   * failure itself says what was skipped.
   */
  sentence(): string | undefined {
    if (this.#lines === 0 || this.#overflowed) return undefined;
    return `the server also wrote ${describeSkipped(this.#lines)} to stdout; the last: ${this.#tail.at(-1) ?? '""'}`;
  }
}

/** "1 line that is not an MCP message", "3 lines that are not MCP messages". */
function describeSkipped(lines: number): string {
  return lines === 1 ? '1 line that is not an MCP message' : `${lines} lines that are not MCP messages`;
}
