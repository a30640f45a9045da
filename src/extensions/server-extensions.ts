/**
 * What a server says it offers: `capabilities.extensions` of `server/discover` (2026) or `initialize`
 * (2025), read as server data — bounded, each key a valid extension id, each value an object (anything
 * else is dropped, never an error: an extension the server botched is one the client does not use).
 */
import { isExtensionId } from '../protocol/extension-id.js';

/** Most entries kept from a server's `capabilities.extensions`. */
export const MAX_SERVER_EXTENSIONS = 64;

const EMPTY: Readonly<Record<string, Readonly<Record<string, unknown>>>> = Object.freeze({});

/** The server's extensions from its capabilities, frozen; `{}` when it names none. */
export function readServerExtensions(
  capabilities: Readonly<Record<string, unknown>>,
): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  const raw = capabilities['extensions'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return EMPTY;
  const kept: Record<string, Readonly<Record<string, unknown>>> = {};
  let count = 0;
  for (const [id, settings] of Object.entries(raw)) {
    if (count >= MAX_SERVER_EXTENSIONS) break;
    if (!isExtensionId(id)) continue;
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) continue;
    kept[id] = settings as Record<string, unknown>;
    count++;
  }
  return count === 0 ? EMPTY : Object.freeze(kept);
}
