/**
 * Opens a URL in the system browser: a program and its arguments, never a shell string (a URL full of
 * `&` must not become shell syntax). Resolves `false` when no opener could be started, so the caller
 * can print the URL for the user instead.
 */
import { spawn } from 'node:child_process';

function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  // `start` is a cmd builtin; rundll32 opens a URL without a shell parse of it.
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

export function openInBrowser(url: string): Promise<boolean> {
  const [command, args] = opener(url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, {
        stdio: 'ignore',
        detached: true,
        shell: false,
        windowsHide: true,
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
