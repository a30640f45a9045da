/**
 * Routes the notifications a server sends (other than progress, which belongs to its call): a tools
 * list change and the 2026 subscription's messages go to the tool change events (which drop the cached
 * list), a log message goes to `onLog` bounded and redacted. Everything else is data nobody asked for and
 * is dropped. Spec: S25+26/server/tools, S26/basic/patterns/subscriptions, S25/server/utilities/logging.
 */
import { debugLog } from '../diagnostics/publish.js';
import { redact } from '../internal/redact.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { ToolChanges } from './tool-changes.js';
import type { ServerLogEntry } from './types.js';

const log = debugLog;

export interface NotificationRoutes {
  changes: ToolChanges;
  onLog?: ((entry: ServerLogEntry) => void) | undefined;
}

/** What the tool change events hear: the list change, and the 2026 subscription's acknowledgement. */
const CHANGE_METHODS: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/subscriptions/acknowledged',
]);

/** Handles one notification; never throws (a throwing `onLog` is logged). */
export function routeNotification(message: JsonRpcNotification, routes: NotificationRoutes): void {
  if (CHANGE_METHODS.has(message.method)) {
    routes.changes.receive(message);
    return;
  }
  if (message.method !== 'notifications/message' || routes.onLog === undefined) return;
  const params = message.params ?? {};
  const raw = params['data'];
  const data = typeof raw === 'string' ? raw.slice(0, 16_384) : describeLogData(raw);
  const entry: ServerLogEntry = {
    level: typeof params['level'] === 'string' ? params['level'].slice(0, 20) : 'info',
    ...(typeof params['logger'] === 'string' ? { logger: params['logger'].slice(0, 200) } : {}),
    data: redact(data, 4096),
  };
  try {
    routes.onLog(entry);
  } catch (error) {
    log('onLog threw: %o', error);
  }
}

/** Log data as text; data too deeply nested to serialise is named, not lost silently. */
function describeLogData(data: unknown): string {
  try {
    return (JSON.stringify(data ?? null) ?? 'null').slice(0, 16_384);
  } catch {
    return '[log data could not be serialised]';
  }
}
