// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} placeholders are literal text of config files here
/**
 * Placeholders in configured servers: `${VAR}`, `${VAR:-default}` (when VAR is unset or empty) and
 * `${env:VAR}` read the environment; `${workspaceFolder}` is the project directory and `${userHome}` the
 * home directory; OpenCode files also write `{env:VAR}`. They stay as written in every listing and are
 * resolved only at connect, from the environment of the process that connects. A VS Code `${input:…}` prompt
 * or any other form is a problem of the entry, never guessed at.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `${…}` everywhere; OpenCode's `{env:…}` and `{file:…}` too. */
const ANY = /\$\{([^}]*)\}/g;
const OPENCODE = /\$\{([^}]*)\}|\{(env|file):([^}]*)\}/g;
const UNTERMINATED = /\$\{[^}]*$/;

/** One placeholder found in a string. */
type Piece =
  | { readonly kind: 'env'; readonly name: string; readonly fallback?: string }
  | { readonly kind: 'workspaceFolder' }
  | { readonly kind: 'userHome' }
  | { readonly kind: 'bad'; readonly reason: string };

interface Found {
  readonly start: number;
  readonly end: number;
  readonly piece: Piece;
}

/** Every placeholder of `text`, in order. */
function find(text: string, opencode: boolean): Found[] {
  const found: Found[] = [];
  const pattern = new RegExp(opencode ? OPENCODE : ANY);
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const inner = match[1];
    found.push({ start, end, piece: inner === undefined ? opencodePiece(match[2], match[3]) : piece(inner) });
  }
  if (UNTERMINATED.test(text))
    found.push({
      start: text.length,
      end: text.length,
      piece: { kind: 'bad', reason: 'a placeholder "${" is not closed with "}"' },
    });
  return found;
}

function piece(inner: string): Piece {
  if (inner === 'workspaceFolder') return { kind: 'workspaceFolder' };
  if (inner === 'userHome') return { kind: 'userHome' };
  if (NAME.test(inner)) return { kind: 'env', name: inner };
  if (inner.startsWith('env:') && NAME.test(inner.slice(4))) return { kind: 'env', name: inner.slice(4) };
  const dash = inner.indexOf(':-');
  if (dash > 0 && NAME.test(inner.slice(0, dash)))
    return { kind: 'env', name: inner.slice(0, dash), fallback: inner.slice(dash + 2) };
  if (inner.startsWith('input:'))
    return {
      kind: 'bad',
      reason:
        'it asks for a VS Code input (${input:…}), which only VS Code can prompt for; put the value in an environment variable and write ${env:NAME}',
    };
  const shown = inner.length > 40 ? `${inner.slice(0, 39)}…` : inner;
  return {
    kind: 'bad',
    reason: `the placeholder \${${/^[A-Za-z0-9_:.-]*$/.test(shown) ? shown : '…'}} is not one autos-mcp knows (\${VAR}, \${VAR:-default}, \${env:VAR}, \${workspaceFolder}, \${userHome})`,
  };
}

function opencodePiece(kind: string | undefined, name: string | undefined): Piece {
  if (kind === 'env' && name !== undefined && NAME.test(name)) return { kind: 'env', name };
  if (kind === 'file')
    return {
      kind: 'bad',
      reason:
        'it reads a file ({file:…}), which autos-mcp does not do; use an environment variable ({env:NAME})',
    };
  return { kind: 'bad', reason: 'a placeholder {env:…} needs a variable name' };
}

/** The environment variables `text` reads, and the first problem with its placeholders. */
export function scanText(text: string, opencode: boolean): { variables: string[]; problem?: string } {
  const variables: string[] = [];
  for (const { piece: p } of find(text, opencode)) {
    if (p.kind === 'bad') return { variables, problem: p.reason };
    if (p.kind === 'env' && !variables.includes(p.name)) variables.push(p.name);
  }
  return { variables };
}

/** What resolving reads. */
export interface Lookup {
  readonly env: NodeJS.ProcessEnv;
  readonly workspaceFolder: string | undefined;
  readonly userHome: string;
  /** Called for a variable that is unset (and has no default): throws. */
  readonly missing: (name: string) => never;
  readonly bad: (reason: string) => never;
}

/** `text` with its placeholders replaced (see the rules at the top of this file). */
export function resolveText(text: string, opencode: boolean, lookup: Lookup): string {
  const found = find(text, opencode);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const { start, end, piece: p } of found) {
    out += text.slice(at, start);
    at = end;
    if (p.kind === 'bad') lookup.bad(p.reason);
    else if (p.kind === 'userHome') out += lookup.userHome;
    else if (p.kind === 'workspaceFolder') {
      if (lookup.workspaceFolder === undefined)
        lookup.bad('${workspaceFolder} is used, but the entry is not in a project file');
      out += lookup.workspaceFolder;
    } else {
      const value = lookup.env[p.name];
      if (value !== undefined && (value !== '' || p.fallback === undefined)) out += value;
      else if (p.fallback !== undefined) out += p.fallback;
      else lookup.missing(p.name);
    }
  }
  return out + text.slice(at);
}
