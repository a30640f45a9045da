/**
 * Streamable HTTP transport: the only entry of `src/transport/http/`. Spec: S25/basic/transports,
 * S26/basic/transports/streamable-http.
 */
export { HttpConnection, type HttpConnectionExtras } from './connection.js';
export { type SseItem, type SseMessage, type SseOverflow, SseParser, type SseParserOptions } from './sse.js';
