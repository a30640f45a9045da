/**
 * Reads one config file, bounded: a file that is missing is nothing, one that is not a regular file, cannot
 * be read or is larger than the bound is a problem, never a crash. The digest is of the bytes read, so what
 * is trusted is exactly what was parsed.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Largest config file read. `~/.claude.json` also keeps Claude Code's history, hence its larger bound. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
export const MAX_CLAUDE_USER_BYTES = 64 * 1024 * 1024;

export type ReadResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'problem'; readonly message: string }
  | { readonly kind: 'read'; readonly text: string; readonly sha256: string };

export async function readConfigFile(file: string, maxBytes: number): Promise<ReadResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', message: `cannot be read (${code})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'problem', message: 'is not a regular file' };
    const tooLarge = {
      kind: 'problem',
      message: `is larger than ${maxBytes} bytes; it was not read`,
    } as const;
    if (info.size > maxBytes) return tooLarge;
    // Read at most one byte past the bound: a file that grew since the stat is caught too.
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return tooLarge;
    const bytes = buffer.subarray(0, length);
    return {
      kind: 'read',
      text: bytes.toString('utf8').replace(/^\uFEFF/, ''),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  } catch (error) {
    return { kind: 'problem', message: `cannot be read (${codeOf(error)})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
