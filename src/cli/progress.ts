/**
 * The progress bar of `call` on stderr, never on stdout. Drawn only when stderr is a terminal: one line,
 * redrawn in place, fitted to the terminal's width (`columns`, redrawn on `resize`), the server's message
 * sanitized and cut to what is left. When stderr is not a terminal nothing is drawn while the call runs;
 * `done()` writes one plain final line (`progress 5/5 message`), no escape sequence, when there was progress.
 */
import type { Progress } from '../client/index.js';
import { fitColumns, terminalText } from '../internal/terminal-text.js';
import type { OutputSink } from './io.js';

/** Erase the current line and go to its start. */
const CLEAR = '\r\x1b[2K';
const DEFAULT_COLUMNS = 80;

/** `[#####.....] 3/10 message` fitted to `columns` (the last column is left free: no autowrap). */
export function progressLine(p: Progress, columns: number, width = 24): string {
  const room = Math.max(1, columns - 1);
  const fraction =
    p.total !== undefined && p.total > 0 ? Math.min(1, Math.max(0, p.progress / p.total)) : undefined;
  const barWidth = Math.min(width, Math.floor(room / 3));
  const bar =
    fraction === undefined || barWidth < 4
      ? ''
      : `[${'#'.repeat(Math.round(fraction * barWidth)).padEnd(barWidth, '.')}] `;
  const count = p.total ? `${p.progress}/${p.total}` : `${p.progress}`;
  const message = p.message ? ` ${terminalText(p.message, { oneLine: true, max: 1000 }).trim()}` : '';
  return fitColumns(`${bar}${count}${message}`.trimEnd(), room);
}

export function progressBar(sink: OutputSink, width = 24): { update(p: Progress): void; done(): void } {
  let drawn = false;
  let last: Progress | undefined;
  const columns = (): number =>
    typeof sink.columns === 'number' && sink.columns > 0 ? sink.columns : DEFAULT_COLUMNS;
  const draw = (): void => {
    if (last === undefined) return;
    sink.write(`${CLEAR}${progressLine(last, columns(), width)}`);
    drawn = true;
  };
  let listening = false;
  return {
    update(p) {
      last = p;
      if (!sink.isTTY) return;
      if (!listening && sink.on) {
        sink.on('resize', draw);
        listening = true;
      }
      draw();
    },
    done() {
      if (listening) sink.off?.('resize', draw);
      listening = false;
      if (drawn) sink.write(CLEAR);
      else if (!sink.isTTY && last !== undefined)
        sink.write(`progress ${progressLine(last, Number.POSITIVE_INFINITY, width)}\n`);
      drawn = false;
      last = undefined;
    },
  };
}
