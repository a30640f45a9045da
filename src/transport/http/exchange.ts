/**
 * One POST exchange of Streamable HTTP: send a message, read a JSON or SSE answer, deliver what arrives,
 * and for a request stop once its response is in. A 2025 response stream that breaks early is resumed
 * with GET + `Last-Event-ID` after the SSE `retry` delay (bounded by the policy in backoff.ts), never
 * re-POSTed (S25/basic/transports). A JSON answer to a request must be the response to that request.
 */

import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpError } from '../../errors/index.js';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../protocol/jsonrpc.js';
import type { SendOptions } from '../connection.js';
import { madeProgress, RESUME_BUDGET, Reconnect } from './backoff.js';
import { discard, ERROR_BODY_LIMIT, mediaType, readBounded, readSse, type SseOutcome } from './body.js';
import { type AbortCause, abortError, networkError, serverMessage, statusError } from './failures.js';
import { readSessionId, SESSION_HEADER } from './session.js';
import { type HttpShell, type Issued, issue } from './shell.js';
import { SseParser } from './sse.js';

/** Error bodies are small; this is plenty for a JSON-RPC error with data. A longer body is not read. */

export interface ExchangeInput {
  message: JsonRpcMessage;
  options: SendOptions;
  /** Aborted by the caller's signal or by `close()`; `abortCause()` says which. */
  signal: AbortSignal;
  abortCause(): AbortCause;
  /** True once the connection is closing: a failure then is the close, not the network. */
  isClosing(): boolean;
}

/** Runs one POST exchange to completion; rejects with an `McpError` (see `Connection.send`). */
export async function postExchange(shell: HttpShell, input: ExchangeInput): Promise<void> {
  const { message, options, signal } = input;
  const rpcMethod = 'method' in message ? message.method : undefined;
  const requestId = 'method' in message && 'id' in message ? (message as JsonRpcRequest).id : undefined;
  const label = `POST ${rpcMethod ?? 'response'} to ${shell.target}`;
  const isInitialize = rpcMethod === 'initialize';
  if (signal.aborted) throw abortError(label, input.abortCause(), false);
  let payload: string;
  try {
    payload = JSON.stringify(message);
  } catch (cause) {
    throw new McpError('config', `${label}: it is not JSON data (a BigInt or a cycle?)`, {
      cause,
    });
  }
  let issued: Issued;
  try {
    // A new initialize starts a new session: it never carries the old id (S25/basic/transports).
    issued = await issue(
      shell,
      { method: 'POST', perMessage: options.headers, newSession: isInitialize },
      payload,
      signal,
      rpcMethod,
    );
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (signal.aborted || input.isClosing()) throw abortError(label, input.abortCause(), true, error);
    throw networkError(label, error);
  }
  const { response, sessionSent } = issued;
  const { statusCode: status, headers: resHeaders, body } = response;
  // Method, status and duration reach the debug log as the http:response event (shell.ts).
  const type = mediaType(resHeaders['content-type']);
  try {
    if (status < 200 || status >= 300) {
      await failedStatus(shell, label, status, resHeaders, body, sessionSent, requestId).catch(
        (error: unknown) => {
          throw isInitialize ? withOldSseHint(error, status) : error;
        },
      );
      return;
    }
    if (isInitialize) shell.headers.adoptSession(readSessionId(resHeaders[SESSION_HEADER], shell.target));
    if (type === 'text/event-stream') {
      await sseExchange(shell, input, label, body, requestId);
      return;
    }
    const raw = await readBounded(body, shell.maxMessageBytes);
    if (raw === null) {
      throw new McpError('too_large', `${label}: response body exceeds ${shell.maxMessageBytes} bytes`, {
        delivery: 'unknown',
      });
    }
    // Decoded once: the blank check and JSON.parse share the text (a second toString was ~1 % per call).
    const text = raw.toString('utf8');
    if (/^\s*$/.test(text)) {
      // 202 (or 200/204, which we also accept though S25/basic/transports says 202) with no body: right for notifications and responses only.
      if (requestId === undefined) return;
      throw new McpError('protocol', `${label}: HTTP ${status} without a response to the request`, {
        delivery: 'unknown',
        status,
      });
    }
    if (type !== 'application/json' && !type.endsWith('+json')) {
      throw new McpError(
        'protocol',
        `${label}: unexpected content type ${JSON.stringify(type.slice(0, 60))}`,
        {
          delivery: 'unknown',
          status,
        },
      );
    }
    const value = parseJson(text, label);
    if (requestId !== undefined) checkJsonAnswer(value, requestId, label, status);
    shell.deliver(value);
  } catch (error) {
    discard(body);
    if ((signal.aborted || input.isClosing()) && !(error instanceof McpError && error.kind === 'too_large')) {
      throw abortError(label, input.abortCause(), true, error);
    }
    if (error instanceof McpError) throw error;
    throw new McpError('transport', `${label}: the response broke off`, {
      delivery: 'unknown',
      cause: error,
    });
  }
}

async function sseExchange(
  shell: HttpShell,
  input: ExchangeInput,
  label: string,
  firstBody: Readable,
  requestId: RequestId | undefined,
): Promise<void> {
  let parser = new SseParser({ maxEventChars: shell.maxMessageBytes + 1024 });
  // Progress for the reconnect policy: a message delivered on the current stream (not a mere new id).
  let delivered = false;
  let openedAt = 0;
  const read = (body: Readable): Promise<SseOutcome> => {
    delivered = false;
    openedAt = performance.now();
    return readSse(body, {
      parser,
      maxMessageBytes: shell.maxMessageBytes,
      label,
      deliver: (value) => {
        delivered = true;
        shell.deliver(value);
      },
      isFinal: (value) => requestId !== undefined && isResponseTo(value, requestId),
    });
  };
  let outcome = await read(firstBody);
  let reconnect: Reconnect | undefined;
  while (outcome.type !== 'done') {
    if (input.signal.aborted || input.isClosing()) throw abortError(label, input.abortCause(), true);
    if (requestId === undefined && outcome.type === 'ended') return; // a notification's stream may simply end
    if (input.options.resumable !== true || parser.lastEventId === '') {
      throw new McpError('transport', `${label}: response stream ended before the response`, {
        delivery: 'unknown',
        ...(outcome.type === 'broken' ? { cause: outcome.error } : {}),
      });
    }
    reconnect ??= new Reconnect({ budget: RESUME_BUDGET });
    reconnect.ended(madeProgress(delivered, performance.now() - openedAt));
    // S25/basic/transports: the client MUST wait the `retry` value before reconnecting; the policy
    // waits at least that (and at least its floor, so `retry: 0` cannot make a tight loop).
    const delay = reconnect.next(parser.retry);
    if (delay === undefined) {
      // The POST was delivered: whether it ran is unknown.
      throw new McpError(
        'transport',
        `${label}: response stream ended before the response (gave up after ${RESUME_BUDGET} resumptions without progress)`,
        { delivery: 'unknown', ...(outcome.type === 'broken' ? { cause: outcome.error } : {}) },
      );
    }
    if (shell.logging)
      shell.log(`resuming in ${delay}ms (attempt ${reconnect.attempts} of ${RESUME_BUDGET})`);
    try {
      await sleep(delay, undefined, { signal: input.signal });
    } catch (error) {
      throw abortError(label, input.abortCause(), true, error);
    }
    const next = new SseParser({ maxEventChars: shell.maxMessageBytes + 1024 });
    next.lastEventId = parser.lastEventId;
    next.retry = parser.retry;
    const body = await resumeGet(shell, input, label, parser.lastEventId);
    parser = next;
    outcome = await read(body);
  }
}

/** GET with `Last-Event-ID` on the same endpoint, with the session id and the negotiated version. */
async function resumeGet(
  shell: HttpShell,
  input: ExchangeInput,
  label: string,
  lastEventId: string,
): Promise<Readable> {
  const getLabel = `${label} (resuming with GET)`;
  let issued: Issued;
  try {
    // The same per-message headers as the request being resumed (its protocol version).
    issued = await issue(
      shell,
      { method: 'GET', lastEventId, perMessage: input.options.headers },
      null,
      input.signal,
    );
  } catch (error) {
    if (input.signal.aborted || input.isClosing()) throw abortError(label, input.abortCause(), true, error);
    const failure = error instanceof McpError ? error : networkError(getLabel, error);
    throw new McpError(failure.kind, failure.message, { delivery: 'unknown', cause: error });
  }
  const { response, sessionSent } = issued;
  if (shell.logging) shell.log(`GET resume -> ${response.statusCode}`);
  if (response.statusCode < 200 || response.statusCode >= 300) {
    discard(response.body);
    const failure = statusError(getLabel, response.statusCode, response.headers, sessionSent);
    if (failure.kind === 'session_expired') shell.headers.dropSession();
    // The POST itself was delivered; what is unknown is whether it ran.
    throw new McpError(failure.kind, failure.message, {
      delivery: 'unknown',
      status: response.statusCode,
      ...(failure.challenge === undefined ? {} : { challenge: failure.challenge }),
    });
  }
  if (mediaType(response.headers['content-type']) !== 'text/event-stream') {
    discard(response.body);
    throw new McpError('protocol', `${getLabel}: the resumed stream is not text/event-stream`, {
      delivery: 'unknown',
    });
  }
  return response.body;
}

/**
 * A non-2xx answer. A JSON-RPC error response carrying an id (400 with -32020/-32021/-32022/-32602,
 * 404 with -32601: S26/basic/transports/streamable-http) is delivered so the engine sees the rpc error
 * (for a request, only when the id is the request's); anything else becomes an `McpError` from the status.
 */
async function failedStatus(
  shell: HttpShell,
  label: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Readable,
  sessionSent: boolean,
  requestId: RequestId | undefined,
): Promise<void> {
  const byStatus = statusError(label, status, headers, sessionSent);
  // 401/403: the challenge decides what to do, and the body's words say why (a WAF, an IP rule, a scope).
  const auth = byStatus.kind === 'auth_required' || byStatus.kind === 'forbidden';
  if (!auth && (byStatus.kind !== 'transport' || (status >= 300 && status < 400))) {
    discard(body);
    if (byStatus.kind === 'session_expired') shell.headers.dropSession();
    throw byStatus;
  }
  const raw = await readBounded(body, ERROR_BODY_LIMIT).catch(() => null);
  if (auth) {
    const type = mediaType(headers['content-type']);
    const said =
      raw === null ? undefined : serverMessage(raw.toString('utf8'), type, byStatus.challenge?.error);
    throw said === undefined ? byStatus : statusError(label, status, headers, sessionSent, said);
  }
  if (raw !== null && raw.length > 0) {
    const text = raw.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    // Delivered only when it can reach its call: an error for another id falls through to the status error.
    if (isIdentifiedError(value) && (requestId === undefined || isResponseTo(value, requestId))) {
      shell.deliver(value);
      return;
    }
    // The server's own words: `POST tools/call to https://h/mcp: HTTP 500: database is down`.
    const said = serverMessage(text, mediaType(headers['content-type']));
    const code = rpcErrorCode(value);
    if (code !== undefined) {
      const rpc = `JSON-RPC error ${code}${said === undefined ? '' : `: ${said}`}`;
      throw new McpError('transport', statusError(label, status, headers, sessionSent, rpc).message, {
        status,
        delivery: byStatus.delivery,
        code,
        detail: rpc,
      });
    }
    if (said !== undefined) throw statusError(label, status, headers, sessionSent, said);
  }
  throw byStatus;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a response (result or error, no method) to `id`. */
export function isResponseTo(value: unknown, id: RequestId): boolean {
  return (
    isObject(value) && !('method' in value) && value['id'] === id && ('result' in value || 'error' in value)
  );
}

/**
 * A JSON body answering a request POST must be the response to that request (S26/basic/transports/streamable-http):
 * anything else would be dropped by the engine as unknown while the call waits out its deadline, so it
 * fails the call now as `protocol`. Ids are server data: shown clipped.
 */
function checkJsonAnswer(value: unknown, requestId: RequestId, label: string, status: number): void {
  const fail = (what: string): never => {
    throw new McpError(
      'protocol',
      `${label}: the JSON answer ${what}, not the response to request ${showId(requestId)}`,
      {
        delivery: 'unknown',
        status,
      },
    );
  };
  if (Array.isArray(value)) fail('is a batch (an array)');
  if (!isObject(value)) fail('is not a JSON-RPC message');
  const message = value as Record<string, unknown>;
  if (typeof message['method'] === 'string') {
    fail('id' in message ? 'is a JSON-RPC request' : 'is a JSON-RPC notification');
  }
  if (!('result' in message) && !('error' in message)) fail('is not a JSON-RPC response');
  const id = message['id'];
  if (id === undefined || id === null) fail('is a response without an id');
  if (id !== requestId) fail(`answers id ${showId(id)}`);
}

function showId(id: unknown): string {
  const text = JSON.stringify(id) ?? String(id);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function isIdentifiedError(value: unknown): boolean {
  if (!isObject(value) || !isObject(value['error'])) return false;
  const id = value['id'];
  return typeof id === 'string' || typeof id === 'number';
}

function rpcErrorCode(value: unknown): number | undefined {
  if (!isObject(value) || !isObject(value['error'])) return undefined;
  const code = value['error']['code'];
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new McpError('protocol', `${label}: the response body is not JSON`, { delivery: 'unknown', cause });
  }
}

/**
 * A 404 or 405 to `initialize` is what an endpoint of the deprecated HTTP+SSE transport (2024-11-05: a GET
 * stream plus a separate POST URL) answers a Streamable HTTP POST with: say so, since it is not supported.
 */
function withOldSseHint(error: unknown, status: number): unknown {
  if (!(error instanceof McpError) || error.kind !== 'transport' || (status !== 404 && status !== 405))
    return error;
  return new McpError(
    'transport',
    `${error.message}; if this is a server on the deprecated HTTP+SSE transport (2024-11-05), that transport is not supported: use its Streamable HTTP endpoint, or run it over stdio`,
    { delivery: error.delivery, status, cause: error },
  );
}
