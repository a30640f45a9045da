/**
 * Names in a generated file tree, made from server-controlled tool names: a function name (a plain ASCII
 * identifier, never a reserved word nor a name the folder's `index.ts` exports) and a file name (the same
 * letters, unique when case is ignored — macOS and Windows file systems ignore it — never `index`, a
 * Windows device name or a dot file, and bounded). Both are assigned in code-point order of the tool
 * names, so a server that reorders its list does not swap two tools' files.
 */
import { createHash } from 'node:crypto';

/** Longest base of a function or file name, before a de-duplicating suffix. */
export const MAX_NAME = 60;

/** JavaScript's reserved words and the strict-mode and TypeScript words that cannot name a function. */
const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally ' +
    'for function if import in instanceof new null return super switch this throw true try typeof var void ' +
    'while with implements interface let package private protected public static yield await arguments eval ' +
    'undefined NaN Infinity any boolean never number object string symbol unknown bigint type declare as'
  ).split(' '),
);

/** What every `index.ts` of a tree declares or imports: no tool function may take these names. */
export const INDEX_NAMES = new Set([
  'bind',
  'use',
  'withTools',
  'callTool',
  'pins',
  'listDigest',
  'structured',
  'Tools',
  'TypedResult',
  'CallOptions',
  'CallToolResult',
  'Client',
  'ConnectOptions',
  'ServerConfig',
  'McpError',
  'isErrorKind',
  'isInputRequired',
  'withClient',
]);

/** File names (lower case, without `.ts`) no tool may take: the folder's own, and Windows devices. */
const RESERVED_FILES = new Set([
  'index',
  'pins',
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 9 }, (_, i) => `com${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `lpt${i + 1}`),
]);

/** The function and file name (without `.ts`) of each tool, by tool name. */
export interface TreeName {
  identifier: string;
  file: string;
}

/**
 * Names for every tool of `names`: deterministic, unique, bounded. No function takes a name of `taken`
 * (the type names the tree declares, re-exported beside the functions by `index.ts`).
 */
export function treeNames(
  names: readonly string[],
  taken: ReadonlySet<string> = new Set(),
): Map<string, TreeName> {
  const identifiers = new Set<string>();
  const files = new Set<string>();
  const out = new Map<string, TreeName>();
  for (const name of [...new Set(names)].sort(byCodePoint)) {
    const base = identifierBase(name);
    const identifier = unique(
      base,
      (c) => identifiers.has(c) || taken.has(c) || INDEX_NAMES.has(c) || RESERVED_WORDS.has(c),
    );
    identifiers.add(identifier);
    const fileBase = identifier.replace(/\$/g, '_');
    const file = unique(fileBase, (c) => files.has(c.toLowerCase()) || RESERVED_FILES.has(c.toLowerCase()));
    files.add(file.toLowerCase());
    out.set(name, { identifier, file });
  }
  return out;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The letters of `name` as an identifier: every run of other characters becomes `_`, a leading digit
 * gets a `_` before it, a name with no letter or digit is `tool`; over `MAX_NAME`, cut and ended with
 * 8 hex digits of the whole name's SHA-256 (so two long names that share a start stay apart).
 */
export function identifierBase(name: string): string {
  let base = name.replace(/[^A-Za-z0-9_$]+/g, '_');
  if (!/[A-Za-z0-9]/.test(base)) base = 'tool';
  if (/^[0-9]/.test(base)) base = `_${base}`;
  if (base.length > MAX_NAME) {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
    base = `${base.slice(0, MAX_NAME - 9)}_${hash}`;
  }
  return base;
}

/** `base`, or `base_2`, `base_3`… — the first that `taken` does not refuse. */
function unique(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The folder of a server in a tree: its name as given when it is a plain word (letters, digits, `-`,
 * `_`, at most 64), else its letters as `identifierBase` makes them; never `.`, `..`, a path or a Windows
 * device name.
 */
export function serverFolder(name: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)
    ? name
    : identifierBase(name).replace(/\$/g, '_');
  return RESERVED_FILES.has(plain.toLowerCase()) ? `${plain}_` : plain;
}
