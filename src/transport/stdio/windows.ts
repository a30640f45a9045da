/**
 * Pure Windows helpers: find a command through PATH + PATHEXT, and build the cmd.exe line that runs a
 * `.cmd`/`.bat` shim (npx, pnpm, …) without letting any argument inject a command ("BatBadBut",
 * CVE-2024-24576). The approach follows Rust std's fix: every argument is quoted, `"` is doubled so cmd's
 * quote state never flips, backslashes are doubled only before a quote (CRT rules), and what cannot be made
 * safe (`%`, line breaks, NUL) is refused rather than guessed at.
 */
import path from 'node:path';
import { McpError } from '../../errors/index.js';
import { getEnv } from './env.js';

/** How to spawn on Windows: pass straight to `child_process.spawn(file, args, { windowsVerbatimArguments })`. */
export interface WindowsSpawnPlan {
  file: string;
  args: string[];
  windowsVerbatimArguments: boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * Resolves `command` like a shell would, but without a shell: a name with a directory part is looked up
 * there (relative to `cwd`); a bare name is looked up in each PATH directory. In each place the name
 * itself is tried when it already has a PATHEXT extension, then the name plus each PATHEXT extension.
 * The current directory is not searched for bare names (unlike cmd.exe), so a file dropped in the
 * working directory cannot shadow a real program. Returns undefined when nothing matches.
 */
export function resolveWindowsCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  exists: (file: string) => boolean,
): string | undefined {
  const win = path.win32;
  const extensions = (getEnv(env, 'PATHEXT', 'win32') ?? DEFAULT_PATHEXT)
    .split(';')
    // Windows file systems ignore case; lower case just gives tidier paths in messages.
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.startsWith('.'));
  const hasKnownExt = extensions.includes(win.extname(command).toLowerCase());
  const hasDir = /[\\/]/.test(command) || /^[A-Za-z]:/.test(command);
  const dirs = hasDir
    ? [win.dirname(win.resolve(cwd, command))]
    : (getEnv(env, 'PATH', 'win32') ?? '')
        .split(';')
        .map((dir) => dir.trim().replace(/^"(.*)"$/, '$1'))
        .filter((dir) => dir.length > 0);
  const base = win.basename(command);
  for (const dir of dirs) {
    const candidates = hasKnownExt ? [base] : [];
    for (const ext of extensions) candidates.push(base + ext);
    for (const name of candidates) {
      const full = win.join(dir, name);
      if (exists(full)) return full;
    }
  }
  return undefined;
}

/** True for files that `CreateProcess` hands to cmd.exe, where argument quoting rules differ. */
export function isBatchFile(file: string): boolean {
  return /\.(cmd|bat)$/i.test(file);
}

/**
 * Builds the spawn plan for a resolved Windows program. A `.exe` is spawned directly (libuv quotes its
 * arguments by the CRT rules). A `.cmd`/`.bat` runs as `cmd.exe /d /e:ON /v:OFF /s /c ""<script>" "<arg>" …"`
 * with `windowsVerbatimArguments`: `/d` skips AutoRun, `/v:OFF` disables `!var!` expansion, `/s` strips
 * exactly the outer quotes. Throws `McpError('config')` for arguments that cannot be passed safely.
 */
export function buildWindowsCommandLine(
  resolvedFile: string,
  args: readonly string[],
  comspec = 'cmd.exe',
): WindowsSpawnPlan {
  if (!isBatchFile(resolvedFile))
    return { file: resolvedFile, args: [...args], windowsVerbatimArguments: false };
  const script = path.win32.basename(resolvedFile);
  // A file name cannot legally contain `"`; `%` would be expanded by cmd; a trailing `\` would escape our quote.
  if (/["%\r\n\0]/.test(resolvedFile) || resolvedFile.endsWith('\\')) {
    throw new McpError(
      'config',
      `cannot run ${script} through cmd.exe: its path contains '"', '%' or a line break`,
    );
  }
  const parts = [`"${resolvedFile}"`];
  args.forEach((arg, index) => {
    parts.push(quoteBatchArgument(arg, index, script));
  });
  return {
    file: comspec,
    args: ['/d', '/e:ON', '/v:OFF', '/s', '/c', `"${parts.join(' ')}"`],
    windowsVerbatimArguments: true,
  };
}

/**
 * Quotes one argument for a batch file. Inside the quotes cmd treats `& | < > ( ) ^` literally; doubling
 * `"` keeps cmd's quote state in step (it toggles twice) while the CRT of the program the script starts
 * reads `""` inside quotes as one literal `"`. Backslashes are doubled only where they precede a quote.
 * `%` is refused: cmd expands `%NAME%` even inside quotes (and across arguments), and no escape exists on
 * a `/c` line. Line breaks end the command and NUL truncates it, so they are refused too.
 */
function quoteBatchArgument(arg: string, index: number, script: string): string {
  if (/[\r\n\0]/.test(arg)) {
    throw new McpError(
      'config',
      `cannot pass argument ${index + 1} to ${script}: it contains a line break or NUL`,
    );
  }
  if (arg.includes('%')) {
    throw new McpError(
      'config',
      `cannot pass argument ${index + 1} to ${script}: it contains '%', which cmd.exe would expand; ` +
        'run the program behind the .cmd shim directly (e.g. node script.js) instead',
    );
  }
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    if (ch === '"') out += '\\'.repeat(backslashes * 2) + '""';
    else out += '\\'.repeat(backslashes) + ch;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}
