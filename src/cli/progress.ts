/**
 * A one-line progress bar on stderr while a server reports progress, redrawn in place on a terminal and
 * printed as plain lines (at most one a second) elsewhere. Never written to stdout.
 */
import type { Progress } from '../client/index.js';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function progressBar(sink: ProgressSink, width = 24): { update(p: Progress): void; done(): void } {
  let drawn = false;
  let lastLine = 0;
  return {
    update(p) {
      const fraction = p.total && p.total > 0 ? Math.min(1, Math.max(0, p.progress / p.total)) : undefined;
      const bar =
        fraction === undefined ? '' : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}] `;
      const count = p.total ? `${p.progress}/${p.total}` : `${p.progress}`;
      const message = p.message ? ` ${p.message.replace(/[\x00-\x1f\x7f]/g, ' ').slice(0, 60)}` : '';
      const line = `${bar}${count}${message}`;
      if (sink.isTTY) {
        sink.write(`\r\x1b[2K${line}`);
        drawn = true;
      } else if (Date.now() - lastLine >= 1000 || (fraction ?? 0) >= 1) {
        sink.write(`progress ${line}\n`);
        lastLine = Date.now();
      }
    },
    done() {
      if (drawn) sink.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
