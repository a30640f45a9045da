/**
 * The shell side of `call`'s arguments: reads the files of `key=@path` and stdin (`-`, `key=@-`), each
 * bounded, as UTF-8 text, before anything is started. A missing or unreadable file is a problem naming
 * the path, handed to the pure `coerceArguments` (tool-arguments.ts) as data.
 */
import { open } from 'node:fs/promises';
import type { SourceText } from './argument-words.js';
import { safeText } from './format.js';
import type { SecretInput } from './io.js';

/** The most bytes read from one file or from stdin for the arguments of one call (4 MiB). */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

const LIMIT = `${MAX_SOURCE_BYTES / 1024 / 1024} MiB`;

function named(path: string): string {
  return JSON.stringify(safeText(path.length > 200 ? `${path.slice(0, 199)}…` : path));
}

/** Bytes as UTF-8 text; undefined when they are not valid UTF-8 (never silently replaced). */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** One file, read up to the bound (a device such as /dev/zero stops there too). */
async function readFileSource(path: string): Promise<SourceText> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(MAX_SOURCE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_SOURCE_BYTES) return { problem: `the file ${named(path)} is larger than ${LIMIT}` };
    const text = utf8(buffer.subarray(0, length));
    return text === undefined ? { problem: `the file ${named(path)} is not UTF-8 text` } : { text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${code ?? 'error'})`;
    return { problem: `the file ${named(path)} ${why}` };
  } finally {
    await handle?.close();
  }
}

/** Stdin to its end, bounded; a terminal is refused (the JSON would be typed blind, without an end). */
function readStdinSource(stdin: SecretInput): Promise<SourceText> {
  if (stdin.isTTY === true)
    return Promise.resolve({
      problem:
        '- reads the arguments from stdin: pipe them in (… < args.json), they are not typed at a terminal',
    });
  return new Promise((resolveText) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (result: SourceText) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      stdin.unref?.();
      resolveText(result);
    };
    // No setEncoding: chunks stay bytes, so invalid UTF-8 is refused rather than replaced.
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += bytes.length;
      if (length > MAX_SOURCE_BYTES) done({ problem: `stdin holds more than ${LIMIT}` });
      else chunks.push(bytes);
    };
    const onEnd = () => {
      const text = utf8(Buffer.concat(chunks));
      done(text === undefined ? { problem: 'stdin is not UTF-8 text' } : { text });
    };
    const onError = (error: Error) =>
      done({ problem: `stdin could not be read (${safeText(error.message)})` });
    stdin.on('data', onData as (chunk: string) => void);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}

/** What each source holds (`-` is stdin), read one after another, each once. */
export async function readArgumentSources(
  sources: readonly string[],
  stdin: SecretInput,
): Promise<Map<string, SourceText>> {
  const read = new Map<string, SourceText>();
  for (const source of sources)
    read.set(source, source === '-' ? await readStdinSource(stdin) : await readFileSource(source));
  return read;
}
