/**
 * The diagnostics surface: the names of the `node:diagnostics_channel` channels autos-mcp publishes on
 * and their payload types (re-exported by the main entry). Publishing itself is internal (publish.ts).
 */
export {
  type ConnectionCloseEvent,
  type ConnectionErrorEvent,
  type ConnectionEvent,
  type ConnectionReadyEvent,
  type DiagnosticsChannelName,
  type DiagnosticsError,
  diagnosticsChannels,
  type HttpErrorEvent,
  type HttpRequestEvent,
  type HttpResponseEvent,
  type RequestEndEvent,
  type RequestErrorEvent,
  type RequestStartEvent,
  type StdioExitEvent,
  type StdioSpawnEvent,
} from './channels.js';
export { type DiagnosticsEvents, subscribeDiagnostics } from './subscribe.js';
