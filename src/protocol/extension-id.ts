/**
 * Extension identifiers (2026-07-28, SEP-2133): keys of `capabilities.extensions`, which follow the `_meta`
 * key rules with a mandatory prefix — dot-separated labels, a slash, a name (T26 `ClientCapabilities.extensions`,
 * `MetaObject`). Pure: used to refuse a bad id before anything starts and to read a server's list.
 */

/** Longest extension id this client sends or reads, in characters (the spec sets none; ids are short names). */
export const MAX_EXTENSION_ID_CHARS = 200;

// A label starts with a letter and ends with a letter or digit; hyphens inside. The name starts and ends
// alphanumeric; hyphens, underscores and dots inside. The prefix is mandatory for extension ids.
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const NAME = '[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?';
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/${NAME}$`);

/** Most extensions one connection turns on (the `extensions` option and config field together). */
export const MAX_EXTENSIONS = 32;

/** Why `id` is not a valid extension identifier, or undefined when it is one. */
export function extensionIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'is not a string';
  if (id.length > MAX_EXTENSION_ID_CHARS) return `is longer than ${MAX_EXTENSION_ID_CHARS} characters`;
  if (!EXTENSION_ID.test(id))
    return 'is not prefix/name (dot-separated labels of letters, digits and hyphens, a slash, then a name: e.g. io.modelcontextprotocol/tasks)';
  return undefined;
}

/** True when `id` is a valid extension identifier. */
export function isExtensionId(id: unknown): id is string {
  return extensionIdProblem(id) === undefined;
}
