/**
 * Tool names as model APIs accept them. OpenAI (Chat Completions and Responses) and Anthropic (Messages)
 * both refuse a tool name that does not match `^[a-zA-Z0-9_-]{1,64}$`; MCP allows more (dots, slashes, any
 * length). Each (server, tool) pair gets a name those APIs accept, deterministically from the whole set, and
 * the reverse map (`ToolNames`, plain data) goes with the definitions so a model's tool call finds its way back.
 */
import { createHash } from 'node:crypto';
import { McpError } from '../errors/index.js';
import { terminalText } from '../internal/terminal-text.js';

/** The name rule of OpenAI function tools and Anthropic tools: letters, digits, `_` and `-`, 1 to 64 of them. */
export const TOOL_NAME_RULE: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_NAME_LENGTH = 64;
/** Between the server key and the tool name in a namespaced name (`demo__echo`). */
export const NAMESPACE_SEPARATOR = '__';
/** `_` and 8 hex digits of a SHA-256: 32 bits, so a clash is only ever met on purpose (then a counter). */
const SUFFIX_LENGTH = 9;

/** Where a name that was given to a model leads: the server key (when namespaced) and the MCP tool name. */
export interface ToolTarget {
  /** The key of the server in the record the tools came from; absent for a single server's list. */
  server?: string;
  /** The tool's name as the server lists it. */
  tool: string;
}

/**
 * The reverse map of a set of definitions: the name a model sees → the server and tool it calls. Plain
 * data (own keys only, no prototype), so it can be stored next to a conversation and used later.
 */
export type ToolNames = Record<string, ToolTarget>;

/** One definition's identity before naming. */
interface NameRequest {
  server?: string;
  tool: string;
}

/** The name a (server, tool) pair is given when nothing needs changing: `tool`, or `server__tool`. */
export function plainName(request: NameRequest): string {
  return request.server === undefined
    ? request.tool
    : `${request.server}${NAMESPACE_SEPARATOR}${request.tool}`;
}

/**
 * Names for a set of (server, tool) pairs: a pair whose plain name (`tool`, or `server__tool`) obeys the
 * rule and is unique keeps it; any other gets its characters outside the rule replaced by `_`, is cut to
 * fit, and ends in `_` + 8 hex digits of SHA-256 of the pair. The result depends on the set, not its order.
 */
export function assignNames(requests: readonly NameRequest[]): string[] {
  const plain = requests.map(plainName);
  const count = new Map<string, number>();
  for (const name of plain) count.set(name, (count.get(name) ?? 0) + 1);
  const names: (string | undefined)[] = plain.map((name) =>
    TOOL_NAME_RULE.test(name) && count.get(name) === 1 ? name : undefined,
  );
  const taken = new Set(names.filter((n): n is string => n !== undefined));
  // Hashed names are assigned in the order of their pair's identity, so the outcome of a (deliberate)
  // suffix clash does not depend on the order the server listed its tools in.
  const pending = requests
    .map((request, index) => ({ index, identity: JSON.stringify([request.server ?? null, request.tool]) }))
    .filter(({ index }) => names[index] === undefined)
    .sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0));
  for (const { index, identity } of pending) {
    const stem = sanitize(plain[index] ?? '').slice(0, MAX_NAME_LENGTH - SUFFIX_LENGTH);
    let name: string;
    for (let attempt = 0; ; attempt++) {
      name = `${stem}_${digest(attempt === 0 ? identity : `${identity}\u0000${attempt}`)}`;
      if (!taken.has(name)) break;
    }
    taken.add(name);
    names[index] = name;
  }
  return names.map((n) => n ?? '');
}

/**
 * Where a name a model called leads, from the map that went with the definitions. An unknown name is
 * refused (`invalid_tool`, `not_sent`): a model may invent names, and nothing is guessed for it.
 */
export function resolveToolName(names: ToolNames, name: unknown): ToolTarget {
  const target =
    typeof name === 'string' && Object.hasOwn(names, name)
      ? (names[name] as ToolTarget | undefined)
      : undefined;
  if (target === undefined || typeof target.tool !== 'string') {
    // Model output, which may echo server text: one sanitized, bounded line.
    const shown =
      typeof name === 'string'
        ? `"${terminalText(name, { oneLine: true, max: 100 })}"`
        : `(a ${typeof name})`;
    throw new McpError(
      'invalid_tool',
      `the model called the tool ${shown}, which is not among the tools it was given`,
    );
  }
  return target;
}

function sanitize(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return replaced === '' ? 'tool' : replaced;
}

function digest(text: string): string {
  return createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, SUFFIX_LENGTH - 1);
}
