/**
 * The run's `console.*` output: lines kept up to `maxLogChars` characters in all, then one marker line saying
 * how much was cut. Once full, `add` returns true and the prelude stops sending lines across.
 */
export class LogSink {
  readonly lines: string[] = [];
  readonly #max: number;
  #used = 0;
  #full = false;

  constructor(maxChars: number) {
    this.#max = maxChars;
  }

  /** Keeps one line; true once the budget is spent (later lines are dropped). */
  add(level: string, line: string): boolean {
    if (this.#full) return true;
    const text = level === 'warn' || level === 'error' ? `[${level}] ${line}` : line;
    const room = this.#max - this.#used;
    if (text.length <= room) {
      this.lines.push(text);
      this.#used += text.length;
      return false;
    }
    if (room > 0) this.lines.push(text.slice(0, room));
    this.lines.push(`[autos-mcp] console output cut at ${this.#max} characters (maxLogChars)`);
    this.#full = true;
    return true;
  }
}
