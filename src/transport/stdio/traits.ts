/**
 * What a stdio connection is, for the engine (transport/connection.ts `ConnectionTraits`): one byte stream
 * per process, so no per-message headers, cancellation by notification, nothing to resume, no separate
 * server stream, and a server that may leave a request unanswered.
 */
import type { ConnectionTraits } from '../connection.js';

export const STDIO_TRAITS: ConnectionTraits = Object.freeze({
  perMessageHeaders: false,
  cancelBy: 'notification',
  resumable: false,
  serverStream: false,
  answersEveryRequest: false,
});
