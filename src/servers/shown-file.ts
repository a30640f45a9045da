/**
 * A config file as a message names it: a project file relative to the working directory (`.mcp.json`,
 * `../.mcp.json`), as the user would type it after `autos-mcp servers trust`; any other with `~` for the
 * home directory.
 */
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { displayPath } from '../store/paths.js';
import type { ConfigScope } from './types.js';

export function shownFile(
  file: string,
  scope: ConfigScope,
  cwd: string = process.cwd(),
  home: string = homedir(),
): string {
  if (scope === 'project') {
    const path = relative(resolve(cwd), file);
    const up = path.split(sep).filter((part) => part === '..').length;
    if (path !== '' && !isAbsolute(path) && up <= 8) return path;
  }
  return displayPath(file, home);
}
