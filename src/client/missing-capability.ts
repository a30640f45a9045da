/**
 * `-32021` MissingRequiredClientCapability (2026-07-28): the server needs a capability this client did not
 * declare — often an extension the caller did not turn on. Its own kind, `missing_capability`, with the
 * server's `error.data` kept as data (`requiredCapabilities`) and what is missing named in the message:
 * server text, so each name is terminal-safe and bounded, and at most a few are named. Spec: S26/basic/index.
 */
import { McpError } from '../errors/index.js';
import { terminalText } from '../internal/terminal-text.js';

/** Most names a message lists. */
const NAMED = 8;

/** The error for a -32021 answer to `method`. */
export function missingCapabilityError(
  method: string,
  target: string,
  code: number,
  rpcMessage: string,
  data: unknown,
): McpError {
  const names = requiredNames(data);
  const listed = names.slice(0, NAMED).join(', ');
  const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
  const what =
    names.length === 0
      ? `a client capability it did not name (${terminalText(rpcMessage, { max: 200, oneLine: true })})`
      : `${listed}${more}`;
  const hint = names.some((name) => name.startsWith('extension '))
    ? '; turn the extension on with connect(config, { extensions: [id] }) or --extension <id>'
    : '';
  return new McpError('missing_capability', `${method} on ${target}: the server requires ${what}${hint}`, {
    delivery: 'delivered',
    code,
    data,
    target,
  });
}

/** `extension <id>` for each required extension, the other capability names as they are. */
function requiredNames(data: unknown): string[] {
  const required = (data as { requiredCapabilities?: unknown } | null | undefined)?.requiredCapabilities;
  if (typeof required !== 'object' || required === null || Array.isArray(required)) return [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(required)) {
    if (names.length > 64) break;
    if (key === 'extensions' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const id of Object.keys(value)) names.push(`extension ${shown(id)}`);
    } else names.push(shown(key));
  }
  return names;
}

function shown(name: string): string {
  return terminalText(name.slice(0, 120), { max: 100, oneLine: true });
}
