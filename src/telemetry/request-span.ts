/**
 * A client span per MCP request, and the trace context it hands the server in `_meta` (SEP-414: the keys
 * `traceparent`, `tracestate`, `baggage`, reserved by S25+26/basic/index; on stdio `_meta` is the only way a
 * server can get them). The span
 * records the method, the server and the outcome, never arguments, results or error messages: a message
 * may quote the server, and an argument may be a secret.
 */
import type * as Otel from '@opentelemetry/api';
import { isMcpError } from '../errors/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { baggage, traceparent } from './w3c.js';

/** What a request is, as far as its span may say. */
export interface RequestFacts {
  readonly method: string;
  /** The server as errors name it: a command line's display name or an HTTP URL without its query. */
  readonly target: string;
  /** The protocol version the request is sent in, once known. */
  readonly protocolVersion?: string | undefined;
  /** The tool or prompt named by `tools/call` / `prompts/get` (a name the server declared, not an argument). */
  readonly name?: string | undefined;
}

/** One request's span: the `_meta` keys to send, then how it ended. */
export interface RequestTrace {
  readonly meta: Readonly<Record<string, string>>;
  /** Runs `send` with the request's span as the active one (so HTTP instrumentation nests under it). */
  run<T>(send: () => Promise<T>): Promise<T>;
  succeeded(result: Record<string, unknown>): void;
  failed(error: unknown): void;
}

const SPAN_KIND_CLIENT = 2; // SpanKind.CLIENT
const STATUS_ERROR = 2; // SpanStatusCode.ERROR

/** The span of one request, or `undefined` when no span is active (then nothing is added to the request). */
export function startRequestSpan(api: typeof Otel, facts: RequestFacts): RequestTrace | undefined {
  const parent = api.context.active();
  const active = api.trace.getSpan(parent);
  if (active === undefined || !api.trace.isSpanContextValid(active.spanContext())) return undefined;
  const span = api.trace
    .getTracer('autos-mcp', PACKAGE_VERSION)
    .startSpan(facts.method, { kind: SPAN_KIND_CLIENT, attributes: attributesOf(facts) }, parent);
  const context = api.trace.setSpan(parent, span);
  return {
    meta: metaOf(api, span.spanContext(), context),
    run: (send) => api.context.with(context, send),
    succeeded(result) {
      // A tool that reports a failure ran: the span says so in `error.type`, as the semantic conventions ask.
      if (facts.method === 'tools/call' && result['isError'] === true) {
        span.setAttribute('error.type', 'tool_error');
        span.setStatus({ code: STATUS_ERROR });
      }
      span.end();
    },
    failed(error) {
      const kind = isMcpError(error) ? error.kind : 'error';
      span.setAttribute('error.type', kind);
      if (isMcpError(error) && error.code !== undefined)
        span.setAttribute('rpc.jsonrpc.error_code', error.code);
      span.setStatus({ code: STATUS_ERROR, message: kind });
      span.end();
    },
  };
}

function attributesOf(facts: RequestFacts): Otel.Attributes {
  const attributes: Otel.Attributes = { 'mcp.method.name': facts.method, 'autos_mcp.target': facts.target };
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.name !== undefined)
    attributes[facts.method === 'prompts/get' ? 'gen_ai.prompt.name' : 'gen_ai.tool.name'] = facts.name;
  const server = httpServer(facts.target);
  if (server !== undefined) {
    attributes['server.address'] = server.address;
    if (server.port !== undefined) attributes['server.port'] = server.port;
  }
  return attributes;
}

function httpServer(target: string): { address: string; port?: number } | undefined {
  if (!/^https?:\/\//.test(target)) return undefined;
  try {
    const url = new URL(target);
    const port = url.port === '' ? undefined : Number(url.port);
    return port === undefined ? { address: url.hostname } : { address: url.hostname, port };
  } catch {
    return undefined;
  }
}

function metaOf(api: typeof Otel, span: Otel.SpanContext, context: Otel.Context): Record<string, string> {
  const meta: Record<string, string> = {};
  const parent = traceparent(span.traceId, span.spanId, span.traceFlags);
  if (parent === undefined) return meta;
  meta['traceparent'] = parent;
  const state = span.traceState?.serialize();
  if (state) meta['tracestate'] = state;
  const entries = api.propagation.getBaggage(context)?.getAllEntries();
  const carried = entries === undefined ? undefined : baggage(entries);
  if (carried !== undefined) meta['baggage'] = carried;
  return meta;
}
