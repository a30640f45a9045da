/**
 * The name a stdio server goes by in messages: what the user typed, shortened — the program's base name
 * and, when there is one, the base name of its first argument that is not an option (`node
 * crash-server.mjs`, `npx server-filesystem`, `python my_server`). Never an option's value written as
 * `--key=value`, never a `NAME=value` pair (an `env` command line), never code (`node -e "…"`), never a
 * URL's query or userinfo; each part is bounded and free of control characters. Shared by config (a
 * normalized config's `target`) and the stdio transport (spawn messages).
 */
import path from 'node:path';
import { terminalText } from './terminal-text.js';

/** Longest part of a display name (the program, the script), in characters. */
const PART_MAX = 48;

/** The display name of a stdio server: `program script`, or `program` alone. */
export function serverDisplayName(command: string, args: readonly string[]): string {
  const program = programName(command);
  // A path- or package-like word: not an option, not `NAME=value`, not code (`node -e "…"`).
  const script = args.find(
    (arg) => isUrl(arg) || (!arg.startsWith('-') && /^[\w@.+~:/\\-]+$/.test(arg) && !arg.includes('=')),
  );
  return script === undefined ? program : `${program} ${scriptName(script)}`;
}

/** The base name of a command (never its arguments or environment), bounded. */
export function programName(command: string): string {
  return part(path.win32.basename(path.posix.basename(command)) || command);
}

function isUrl(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) && URL.canParse(arg);
}

function scriptName(arg: string): string {
  if (isUrl(arg)) {
    // A URL argument (a proxy to a remote server): its host and path, never userinfo or query.
    const url = new URL(arg);
    return part(`${url.host}${url.pathname === '/' ? '' : url.pathname}`);
  }
  const bare = arg.split(/[?#]/, 1)[0] ?? arg;
  return part(path.win32.basename(path.posix.basename(bare)) || bare);
}

/** Escape sequences, controls and bidi characters removed (the one terminal sanitizer), one line, cut. */
function part(text: string): string {
  const clean = terminalText(text.slice(0, 4 * PART_MAX), { oneLine: true })
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > PART_MAX ? `${clean.slice(0, PART_MAX - 1)}…` : clean || '?';
}
