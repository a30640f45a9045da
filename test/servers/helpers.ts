/** A throwaway home and project directory (a git repository) per test, with files written by the test. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Dirs {
  /** The user's home. */
  readonly home: string;
  /** The project: a git repository root. */
  readonly proj: string;
  /** Writes `text` at `file` (relative to `base`), creating its directories; returns the absolute path. */
  write(base: string, file: string, text: string): string;
  readonly cleanup: () => void;
}

export function dirs(): Dirs {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'autos-mcp-servers-')));
  const home = path.join(root, 'home');
  const proj = path.join(root, 'proj');
  mkdirSync(home);
  mkdirSync(path.join(proj, '.git'), { recursive: true });
  return {
    home,
    proj,
    write(base, file, text) {
      const full = path.join(base, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, text);
      return full;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
