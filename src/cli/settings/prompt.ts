/**
 * The hidden prompt of `settings set` on a terminal: raw mode, nothing echoed, the terminal restored on
 * every way out; Ctrl-C cancels, and nothing is saved (exit code 130).
 */
import { McpError } from '../../client/index.js';
import type { CliIo, SecretInput } from '../io.js';
import type { SecretItem } from './options.js';
import { itemLabel } from './stdin.js';

/** Exit code of a secret prompt ended with Ctrl-C (or SIGINT): nothing was saved. */
export const CANCELLED_EXIT = 130;

/** Ctrl-C at a prompt: nothing is saved. */
class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
}

/** One hidden prompt per item, in order. */
export async function promptAll(
  stdin: SecretInput,
  io: CliIo,
  items: readonly SecretItem[],
): Promise<string[]> {
  const values: string[] = [];
  for (const item of items)
    values.push(await promptHidden(stdin, io, `Value of ${itemLabel(item)} (input hidden): `));
  return values;
}

/**
 * One hidden line from a terminal: raw mode, nothing echoed (not even `*`), Backspace and Ctrl-U edit,
 * escape sequences (arrows, bracketed paste markers) are skipped, Enter ends it, Ctrl-C cancels. The
 * terminal is restored on every way out: Enter, Ctrl-C, SIGINT/SIGTERM from outside, process exit.
 */
export function promptHidden(stdin: SecretInput, io: CliIo, label: string): Promise<string> {
  const setRaw = stdin.setRawMode;
  if (typeof setRaw !== 'function')
    return Promise.reject(
      new McpError('config', 'stdin is a terminal without raw mode: pipe the values in instead'),
    );
  return new Promise((resolveValue, reject) => {
    let value = '';
    /** 0: text; 1: after ESC; 2: inside a CSI sequence (ESC [ … final byte). */
    let inEscape = 0;
    let restored = false;
    const restore = () => {
      if (restored) return;
      restored = true;
      try {
        setRaw.call(stdin, false);
      } catch {
        // the terminal is gone
      }
      stdin.off('data', onData);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', restore);
      stdin.pause();
    };
    const onSignal = (signal: NodeJS.Signals) => {
      restore();
      io.stderr.write('\ncancelled: nothing was saved\n');
      process.exit(signal === 'SIGINT' ? CANCELLED_EXIT : 143);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (inEscape === 1) {
          inEscape = ch === '[' ? 2 : 0;
          continue;
        }
        if (inEscape === 2) {
          if (ch >= '@' && ch <= '~') inEscape = 0;
          continue;
        }
        if (ch === '\r' || ch === '\n') {
          restore();
          io.stderr.write('\n');
          resolveValue(value);
          return;
        }
        if (ch === '\x03') {
          restore();
          io.stderr.write('\n');
          reject(new PromptCancelled('cancelled at the prompt'));
          return;
        }
        if (ch === '\x04') {
          restore();
          io.stderr.write('\n');
          resolveValue(value);
          return;
        }
        if (ch === '\x7f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch === '\x15') value = '';
        else if (ch === '\x1b') inEscape = 1;
        else if (ch >= ' ' && ch !== '\x7f') value += ch;
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('exit', restore);
    // Echo is off before the prompt shows: what is typed once it is there is never echoed.
    setRaw.call(stdin, true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
    io.stderr.write(label);
  });
}

/** `set` with a prompt cancelled by Ctrl-C: the exit code, or undefined for any other error. */
export function cancelledExit(error: unknown, io: CliIo): number | undefined {
  if (!(error instanceof PromptCancelled)) return undefined;
  io.stderr.write('cancelled: nothing was saved\n');
  return CANCELLED_EXIT;
}
