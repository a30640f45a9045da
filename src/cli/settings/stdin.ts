/**
 * Reading the secret values of `settings set` from a piped stdin: one line per value, in the order the
 * options were given, or the whole `--json-config` document; both bounded.
 */
import { McpError } from '../../client/index.js';
import { safeText } from '../format.js';
import type { SecretInput } from '../io.js';
import { UsageError } from '../usage-error.js';
import type { SecretItem } from './options.js';

/** Most bytes read from stdin for `set` (the values, or the `--json-config` document). */
const MAX_STDIN_CHARS = 1024 * 1024;

/** The value an item asks for, as named in prompts and messages (never the value). */
export function itemLabel(item: SecretItem): string {
  if (item.kind === 'authToken') return 'the auth token (--auth-token)';
  return item.kind === 'env' ? `env ${safeText(item.name)}` : `header ${safeText(item.name)}`;
}

/** Reads stdin to its end (bounded). */
export function readAll(stdin: SecretInput): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = '';
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      if (error) reject(error);
      else resolveText(text);
    };
    const onData = (chunk: string) => {
      text += chunk;
      if (text.length > MAX_STDIN_CHARS)
        done(
          new McpError('too_large', `stdin holds more than ${MAX_STDIN_CHARS / 1024} KiB: nothing was saved`),
        );
    };
    const onEnd = () => done();
    const onError = (error: Error) =>
      done(new McpError('config', `stdin could not be read (${error.message})`));
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}

/** The first `count` lines of stdin (without their line ends); stops reading once it has them. */
export function readLines(
  stdin: SecretInput,
  count: number,
  items: readonly SecretItem[],
): Promise<string[]> {
  return new Promise((resolveLines, reject) => {
    let buffered = '';
    const lines: string[] = [];
    let finished = false;
    const done = (error?: Error) => {
      if (finished) return;
      finished = true;
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      stdin.unref?.();
      if (error) reject(error);
      else resolveLines(lines);
    };
    const take = () => {
      for (
        let newline = buffered.indexOf('\n');
        newline >= 0 && lines.length < count;
        newline = buffered.indexOf('\n')
      ) {
        lines.push(buffered.slice(0, newline).replace(/\r$/, ''));
        buffered = buffered.slice(newline + 1);
      }
      if (lines.length >= count) done();
    };
    const onData = (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_STDIN_CHARS)
        return done(
          new McpError(
            'too_large',
            `a line of stdin is over ${MAX_STDIN_CHARS / 1024} KiB: nothing was saved`,
          ),
        );
      take();
    };
    const onEnd = () => {
      if (buffered !== '' && lines.length < count) lines.push(buffered.replace(/\r$/, ''));
      if (lines.length < count) {
        const missing = items.slice(lines.length).map(itemLabel).join(', ');
        return done(
          new UsageError(
            `stdin ended after ${lines.length} line${lines.length === 1 ? '' : 's'}; want one line per value, in order (missing: ${missing}): nothing was saved`,
          ),
        );
      }
      done();
    };
    const onError = (error: Error) =>
      done(new McpError('config', `stdin could not be read (${error.message})`));
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}
