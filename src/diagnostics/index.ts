/**
 * `autos-mcp/diagnostics`: the names of the `node:diagnostics_channel` channels autos-mcp publishes on,
 * their payload types, and `subscribeDiagnostics`. Publishing itself is internal (publish.ts). Read
 * docs/diagnostics.md.
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
