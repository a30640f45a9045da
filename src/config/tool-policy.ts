/**
 * The two tool-policy fields of a server config, validated as plain data: `tools` (which tools may be
 * listed and called: exact names and `*` globs) and `pin` (the definitions a user approved, by digest).
 * A config may come from a cloned repository, so every list and string here is bounded; messages name
 * the field and an index, never a pattern or a digest. Applying them is the client's job
 * (`client/tool-filter.ts`, `client/tool-pins.ts`).
 */
import { McpError } from '../errors/index.js';
import { pathKey } from './plain-data.js';

/** The parts of a tool definition a pin covers, each with its own digest (the whole also covers `name`). */
export const TOOL_PARTS = Object.freeze([
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const);

/** One part of a tool definition a pin covers. */
export type ToolPart = (typeof TOOL_PARTS)[number];

/**
 * `tools` of a server config: `allow` (only these) and `deny` (never these), exact names or `*` globs, and
 * `approve` (these are called only after a yes).
 */
export interface ToolFilterConfig {
  /** Only tools matching one of these are listed and called. Absent: every tool; `[]`: none. */
  allow?: string[] | undefined;
  /** Tools matching one of these are never listed or called; deny wins over allow. */
  deny?: string[] | undefined;
  /**
   * Tools matching one of these are listed, but each call waits for a yes from the `onApprove` handler of
   * the connect options (the CLI asks on the terminal); no handler, a no or a throw: refused with `denied`,
   * `not_sent`. Applies to tools `allow`/`deny` let through.
   */
  approve?: string[] | undefined;
}

/** A pinned definition: its whole digest, and optionally each part's, so a change can be named by part. */
export interface ToolPinObject {
  /** `sha256:<64 hex>` of the whole definition (see `toolDigest`). */
  digest: string;
  /** `sha256:<64 hex>` of each part present when it was pinned. */
  parts?: Partial<Record<ToolPart, string>> | undefined;
}

/** `pin` of a server config: per tool name, its digest string or a `ToolPinObject`. */
export type ToolPinsConfig = Record<string, string | ToolPinObject>;

/** A normalized pin: `parts` undefined when only the whole digest was pinned. */
export interface ToolPin {
  digest: string;
  parts: Partial<Record<ToolPart, string>> | undefined;
}

/** Most patterns in `tools.allow`, `tools.deny` and `tools.approve`, each; most tools in `pin`. */
export const MAX_TOOL_PATTERNS = 256;
export const MAX_PINS = 4096;
/** Longest pattern or pinned name: the longest tool name a listing keeps. */
export const MAX_TOOL_NAME = 512;
/** Most `*` in one pattern. */
export const MAX_GLOB_STARS = 16;

/** `sha256:` and 64 lowercase hex digits. */
const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const PART_SET: ReadonlySet<string> = new Set(TOOL_PARTS);

function fail(message: string): never {
  throw new McpError('config', `invalid server config: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A name or pattern: a non-empty string of at most 512 characters without control characters. */
function nameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (value.length > MAX_TOOL_NAME) return `is longer than ${MAX_TOOL_NAME} characters`;
  if (CONTROL.test(value)) return 'holds a control character';
  return undefined;
}

function patternsOf(value: unknown, at: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) fail(`${at} must be an array of tool names or * patterns`);
  if (value.length > MAX_TOOL_PATTERNS) fail(`${at} has more than ${MAX_TOOL_PATTERNS} patterns`);
  return value.map((item: unknown, i) => {
    const problem = nameProblem(item);
    if (problem !== undefined) fail(`${at}[${i}] ${problem}`);
    const pattern = item as string;
    if (pattern.split('*').length - 1 > MAX_GLOB_STARS)
      fail(`${at}[${i}] has more than ${MAX_GLOB_STARS} * wildcards`);
    return pattern;
  });
}

/** Validates `tools`; undefined when absent. Pure. */
export function toolFilterOf(value: unknown): ToolFilterConfig | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value))
    fail('tools must be an object { allow?, deny?, approve? } of tool names or * patterns');
  for (const key of Object.keys(value)) {
    if (key !== 'allow' && key !== 'deny' && key !== 'approve')
      fail(`tools${pathKey(key)} is not a tools field (allow, deny, approve)`);
  }
  const out: ToolFilterConfig = {};
  const allow = patternsOf(value['allow'], 'tools.allow');
  const deny = patternsOf(value['deny'], 'tools.deny');
  const approve = patternsOf(value['approve'], 'tools.approve');
  if (allow !== undefined) out.allow = allow;
  if (deny !== undefined) out.deny = deny;
  if (approve !== undefined) out.approve = approve;
  return out;
}

function digestOf(value: unknown, at: string): string {
  if (typeof value !== 'string' || !SHA256_DIGEST.test(value))
    fail(`${at} must be a digest "sha256:" followed by 64 lowercase hex digits`);
  return value;
}

/** Validates `pin`; undefined when absent. Pure. */
export function toolPinsOf(value: unknown): Record<string, ToolPin> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) fail('pin must be an object of tool name → digest');
  const names = Object.keys(value);
  if (names.length > MAX_PINS) fail(`pin has more than ${MAX_PINS} tools`);
  const out: Record<string, ToolPin> = {};
  for (const name of names) {
    const at = `pin${pathKey(name)}`;
    const problem = nameProblem(name);
    if (problem !== undefined) fail(`a tool name in pin ${problem}`);
    const item = value[name];
    let pin: ToolPin;
    if (typeof item === 'string') pin = { digest: digestOf(item, at), parts: undefined };
    else if (isRecord(item)) {
      for (const key of Object.keys(item)) {
        if (key !== 'digest' && key !== 'parts')
          fail(`${at}${pathKey(key)} is not a pin field (digest, parts)`);
      }
      pin = {
        digest: digestOf(item['digest'], `${at}.digest`),
        parts: partsOf(item['parts'], `${at}.parts`),
      };
    } else fail(`${at} must be a digest string or { digest, parts? }`);
    // Defined, not assigned: a tool named `__proto__` stays a key.
    Object.defineProperty(out, name, { value: pin, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function partsOf(value: unknown, at: string): Partial<Record<ToolPart, string>> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) fail(`${at} must be an object of part → digest`);
  const out: Partial<Record<ToolPart, string>> = {};
  for (const key of Object.keys(value)) {
    if (!PART_SET.has(key)) fail(`${at}${pathKey(key)} is not a tool part (${TOOL_PARTS.join(', ')})`);
    out[key as ToolPart] = digestOf(value[key], `${at}${pathKey(key)}`);
  }
  return out;
}
