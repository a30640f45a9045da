/**
 * Trace context for requests (SEP-414), over OpenTelemetry when the process set it up. The client calls
 * `traceRequest` before each request; it answers `undefined` at once, loading nothing, unless a context
 * manager is registered (read otel-api.ts). Read docs/tracing.md.
 */
import { contextManagerRegistered, loadOtelApi } from './otel-api.js';
import type { RequestFacts, RequestTrace } from './request-span.js';

export type { RequestFacts, RequestTrace } from './request-span.js';

/**
 * The span of one request and the `_meta` keys it adds: `undefined` when OpenTelemetry is not set up (the
 * usual case, decided without importing anything), else a promise of the trace, or of `undefined` when the
 * package is missing or no span is active.
 */
export function traceRequest(facts: RequestFacts): Promise<RequestTrace | undefined> | undefined {
  if (!contextManagerRegistered()) return undefined;
  // The span code is loaded with the API, only in a process that set OpenTelemetry up.
  return loadOtelApi().then(async (api) =>
    api === undefined ? undefined : (await import('./request-span.js')).startRequestSpan(api, facts),
  );
}
