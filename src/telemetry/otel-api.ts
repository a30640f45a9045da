/**
 * `@opentelemetry/api`, an optional peer, loaded only when the process has set OpenTelemetry up. The API
 * keeps its globals at `globalThis[Symbol.for('opentelemetry.js.api.1')]`, and a span can be active only
 * when a context manager is registered there; until one is, nothing is imported and a request costs one
 * property read. The import is tried at most once: a missing package is one failed import, remembered.
 */
import type * as Otel from '@opentelemetry/api';

type OtelApi = typeof Otel;

/** The key every copy of the API v1 registers its globals under (its `internal/global-utils`). */
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

let loading: Promise<OtelApi | undefined> | undefined;

/** True when a context manager is registered (by any copy of the API v1): a span may be active. */
export function contextManagerRegistered(): boolean {
  const globals = (globalThis as Record<symbol, unknown>)[GLOBAL_KEY];
  return typeof globals === 'object' && globals !== null && 'context' in globals;
}

/** The API, imported on the first call only; `undefined` for ever when it is not installed. */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => api,
    () => undefined,
  );
  return loading;
}
