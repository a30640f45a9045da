/**
 * Server names come from config files, which a repository may ship: a name is a target on the command line
 * (`autos-mcp tools NAME`, `call NAME.TOOL`), so it must read as one. Letters, digits, `_ - @ + ~` and
 * inner spaces, at most 100 characters, not starting with `-`; never a dot, so `NAME.TOOL` splits at the
 * first dot with no ambiguity (tool names may hold dots).
 */

const NAME = /^[\p{L}\p{N}_@+~](?:[\p{L}\p{N}_@+~ -]{0,98}[\p{L}\p{N}_@+~-])?$/u;
const MAX_SHOWN = 60;

/** Why `name` cannot be a server name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  if (name.includes('.'))
    return 'the name holds a dot, which would make NAME.TOOL ambiguous; rename the entry without dots';
  if (name.length > 100) return 'the name is longer than 100 characters';
  return 'the name is not usable as a target: use letters, digits, _ - @ + ~ and inner spaces';
}

/** A name as shown in a problem: bounded (the CLI sanitizes it for the terminal). */
export function shownName(name: string): string {
  return name.length > MAX_SHOWN ? `${name.slice(0, MAX_SHOWN - 1)}…` : name;
}
