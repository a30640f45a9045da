/**
 * What a command reads and writes: the streams `main(argv, io)` is given. A leaf: it imports nothing from
 * the CLI, so every command and helper can name these types without pulling `main` in (an import circle).
 */

/** Where output goes (stdout, stderr); a terminal also has `isTTY`, its width, and `resize` events. */
export interface OutputSink {
  write(text: string): unknown;
  isTTY?: boolean;
  /** The terminal's width (a TTY stream's `columns`); 80 when not known. */
  columns?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** The stdin the CLI reads secrets and `key=@-` from: a pipe, a file, or a terminal (raw mode for a hidden prompt). */
export interface SecretInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: string) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  resume(): unknown;
  pause(): unknown;
  /** A pipe's (a socket's): lets the process end while the writer keeps it open after the lines wanted. */
  unref?(): unknown;
}

/** The streams of one run of the CLI. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: OutputSink;
  /** Where `settings set` reads secret values and `call` reads `key=@-` (default `process.stdin`). */
  stdin?: SecretInput;
}
