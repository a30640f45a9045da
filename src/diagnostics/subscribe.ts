/**
 * `subscribeDiagnostics(channel, listener)`: `diagnostics_channel.subscribe` with the payload typed by the
 * channel, so a listener needs no cast. Returns the function that unsubscribes it.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type {
  ConnectionCloseEvent,
  ConnectionErrorEvent,
  ConnectionEvent,
  ConnectionReadyEvent,
  DiagnosticsChannelName,
  HttpErrorEvent,
  HttpRequestEvent,
  HttpResponseEvent,
  RequestEndEvent,
  RequestErrorEvent,
  RequestStartEvent,
  StdioExitEvent,
  StdioSpawnEvent,
} from './channels.js';

/** The payload of each channel, by channel name. */
export interface DiagnosticsEvents {
  'autos-mcp:connection:open': ConnectionEvent;
  'autos-mcp:connection:ready': ConnectionReadyEvent;
  'autos-mcp:connection:error': ConnectionErrorEvent;
  'autos-mcp:connection:close': ConnectionCloseEvent;
  'autos-mcp:request:start': RequestStartEvent;
  'autos-mcp:request:end': RequestEndEvent;
  'autos-mcp:request:error': RequestErrorEvent;
  'autos-mcp:stdio:spawn': StdioSpawnEvent;
  'autos-mcp:stdio:exit': StdioExitEvent;
  'autos-mcp:http:request': HttpRequestEvent;
  'autos-mcp:http:response': HttpResponseEvent;
  'autos-mcp:http:error': HttpErrorEvent;
}

/** Every channel has its payload type here (a compile error if a channel is added without one). */
type Covered = DiagnosticsChannelName extends keyof DiagnosticsEvents ? true : never;
const covered: Covered = true;
void covered;

/** Subscribes `listener` to `channel` (a `diagnosticsChannels` value); returns the unsubscribe function. */
export function subscribeDiagnostics<Name extends keyof DiagnosticsEvents>(
  channel: Name,
  listener: (event: DiagnosticsEvents[Name]) => void,
): () => void {
  const onMessage = (message: unknown) => listener(message as DiagnosticsEvents[Name]);
  subscribe(channel, onMessage);
  return () => {
    unsubscribe(channel, onMessage);
  };
}
