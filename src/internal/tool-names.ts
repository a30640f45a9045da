/**
 * What to tell about a tool name the server does not have: its tool names when there are few, the closest
 * ones otherwise. Shared by the library's errors and the CLI's usage errors, so both say the same. The
 * work is bounded: names compared by their first 64 characters, at most 10,000 names looked at.
 */
import { terminalText } from './terminal-text.js';

/** Up to this many names are listed whole; with more, only the closest are named. */
export const FEW_TOOLS = 20;
/** Longest input compared (longer names are compared by their start), and most tool names looked at. */
const MAX_COMPARED = 64;
const MAX_CANDIDATES = 10_000;
/** Each name shown is cut to this many characters. */
const MAX_NAME = 120;

/** Levenshtein distance of two strings cut to `MAX_COMPARED` characters (bounded work: 64 × 64). */
function editDistance(a: string, b: string): number {
  const x = a.slice(0, MAX_COMPARED);
  const y = b.slice(0, MAX_COMPARED);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * Up to `limit` tool names close to `wanted`: by edit distance (case-insensitive, within about a third
 * of the name's length), or containing it (or contained in it), closest first.
 */
export function closestNames(wanted: string, names: readonly string[], limit = 3): string[] {
  const w = wanted.toLowerCase().slice(0, MAX_COMPARED);
  const threshold = Math.max(2, Math.floor(w.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of names.slice(0, MAX_CANDIDATES)) {
    const n = name.toLowerCase().slice(0, MAX_COMPARED);
    const distance = editDistance(w, n);
    const contains = w.length >= 3 && (n.includes(w) || w.includes(n));
    if (distance <= threshold || contains)
      scored.push({ name, score: contains ? Math.min(distance, threshold) : distance });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}

/** A server's tool name as one safe, bounded line (it is server text). */
function shownName(name: string): string {
  const line = terminalText(name.slice(0, MAX_NAME * 4), { oneLine: true })
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
}

/**
 * The hint after "no tool of that name", without its list command: `did you mean: echo? (its tools: echo,
 * fail)`, `its tools: a, b` (up to `FEW_TOOLS`), `the server lists no tools`, or with more tools `did you
 * mean: x, y? (it lists 57 tools)` / `it lists 57 tools`. `more` is appended where the names are not all
 * shown (e.g. `; listTools() names them`).
 */
export function unknownToolHint(wanted: string, names: readonly string[], more = ''): string {
  if (names.length === 0) return 'the server lists no tools';
  const suggestions = closestNames(wanted, names).map(shownName);
  const guess = suggestions.length > 0 ? `did you mean: ${suggestions.join(', ')}? ` : '';
  if (names.length <= FEW_TOOLS) {
    const all = `its tools: ${names.map(shownName).join(', ')}`;
    return guess === '' ? all : `${guess}(${all})`;
  }
  const count = `it lists ${names.length} tools${more}`;
  return guess === '' ? count : `${guess}(${count})`;
}
