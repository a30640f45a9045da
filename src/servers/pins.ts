/**
 * The tool definitions a user approved for a configured server (`autos-mcp pin NAME`), by server name, in
 * `pinned-tools.json` in the user's own autos-mcp config directory (a private file, 0600, written
 * atomically under a lock by the file store). `loadServers` reads them into each server's `pins`, and
 * `resolveServer` makes them the config's `pin` (see docs/client.md, "Filters and pins"), under any `pin`
 * the config file itself carries.
 */
import type { ToolPinObject } from '../config/tool-policy.js';
import { McpError } from '../errors/index.js';
import type { CredentialStore } from '../store/types.js';
import type { TrustOptions } from './trust.js';
import { userStore } from './user-store.js';

const STORE_NAME = 'pinned-tools';

function storeOf(options: TrustOptions): { store: CredentialStore; file: string } {
  return userStore(STORE_NAME, options);
}

/** The path of the pins file. */
export function pinsFile(options: TrustOptions = {}): string {
  return storeOf(options).file;
}

/** The pins stored for `server`, by tool name (empty when none). A pins file that cannot be read throws `config`. */
export async function storedPins(
  server: string,
  options: TrustOptions = {},
): Promise<Record<string, ToolPinObject>> {
  const { store, file } = storeOf(options);
  try {
    return pinsOf(await store.get(server));
  } catch (error) {
    throw unreadable(file, error);
  }
}

/**
 * The stored pins of each of `servers` that has some (one read of the file for the names, one per pinned
 * server), or the sentence saying why the file cannot be read: then no configured server may be used,
 * since a pinned tool would be called unchecked.
 */
export async function pinsOfServers(
  servers: readonly string[],
  options: TrustOptions,
): Promise<{ pins: Map<string, Record<string, ToolPinObject>> } | { file: string; message: string }> {
  const { store, file } = storeOf(options);
  const pins = new Map<string, Record<string, ToolPinObject>>();
  try {
    const stored = new Set(await store.keys());
    for (const server of servers) {
      if (!stored.has(server)) continue;
      const tools = pinsOf(await store.get(server));
      if (Object.keys(tools).length > 0) pins.set(server, tools);
    }
  } catch (error) {
    return { file, message: unreadable(file, error).message };
  }
  return { pins };
}

function unreadable(file: string, error: unknown): McpError {
  return new McpError(
    'config',
    `the pins in ${file} cannot be read, so no configured server is used: ${error instanceof Error ? error.message : String(error)}`,
    { delivery: 'not_sent' },
  );
}

/** The `tools` of one stored record, own keys copied (a tool may be named `__proto__`). */
function pinsOf(record: Record<string, unknown> | undefined): Record<string, ToolPinObject> {
  const tools = record?.['tools'];
  const out: Record<string, ToolPinObject> = {};
  if (typeof tools !== 'object' || tools === null) return out;
  for (const [name, pin] of Object.entries(tools as Record<string, unknown>))
    Object.defineProperty(out, name, { value: pin, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Stores `pins` for `server`: these tools' entries are replaced, the server's other pins kept. */
export async function savePins(
  server: string,
  pins: Record<string, ToolPinObject>,
  options: TrustOptions = {},
): Promise<{ file: string; tools: number }> {
  const { store, file } = storeOf(options);
  const merged = { ...(await storedPins(server, options)), ...pins };
  await store.set(server, { tools: merged, pinnedAt: new Date().toISOString() });
  return { file, tools: Object.keys(merged).length };
}
