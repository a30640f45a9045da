/**
 * JSON-RPC 2.0 message shapes as MCP uses them (one message per stdio line or HTTP body, never a batch),
 * and a classifier that turns an untrusted parsed value into one of them or says why it is not one.
 * Spec: S25+26/basic/index.
 */

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type Classified =
  | { type: 'request'; message: JsonRpcRequest }
  | { type: 'notification'; message: JsonRpcNotification }
  | { type: 'response'; message: JsonRpcResponse }
  | { type: 'invalid'; reason: string };

/** Standard JSON-RPC error codes used by the client when it answers server requests. */
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
export const HEADER_MISMATCH = -32020;

function isId(value: unknown): value is RequestId {
  return (
    (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) && value !== ''
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isErrorObject(value: unknown): value is JsonRpcErrorObject {
  return isObject(value) && typeof value['code'] === 'number' && typeof value['message'] === 'string';
}

type Fields = Record<string, unknown>;

/** What every message has: `jsonrpc: "2.0"`, and `params` only as an object. */
type Envelope = Fields & { jsonrpc: '2.0'; params?: Fields };

function isEnvelope(value: Fields): value is Envelope {
  return value['jsonrpc'] === '2.0' && (value['params'] === undefined || isObject(value['params']));
}

/** `value[key]` passes `check`: the message is narrowed by that one field, and stays the same object. */
function has<Key extends string, T>(
  value: Fields,
  key: Key,
  check: (field: unknown) => field is T,
): value is Fields & Record<Key, T> {
  return check(value[key]);
}

/** Sorts an untrusted parsed value into a JSON-RPC message kind, or explains why it is not one. */
export function classify(value: unknown): Classified {
  if (!isObject(value))
    return {
      type: 'invalid',
      reason: Array.isArray(value) ? 'batch arrays are not used by MCP' : 'not a JSON object',
    };
  if (value['jsonrpc'] !== '2.0') return { type: 'invalid', reason: 'missing jsonrpc: "2.0"' };
  if (!isEnvelope(value)) return { type: 'invalid', reason: 'params is not an object' };
  if (has(value, 'method', isString)) {
    if (!('id' in value)) return { type: 'notification', message: value };
    if (!has(value, 'id', isId)) return { type: 'invalid', reason: 'request id is not a string or integer' };
    return { type: 'request', message: value };
  }
  if ('result' in value) {
    if (!has(value, 'id', isId)) return { type: 'invalid', reason: 'response id is not a string or integer' };
    if (!has(value, 'result', isObject)) return { type: 'invalid', reason: 'result is not an object' };
    return { type: 'response', message: value };
  }
  if ('error' in value) {
    if (!has(value, 'error', isErrorObject)) {
      return { type: 'invalid', reason: 'error is not {code: number, message: string}' };
    }
    const id = value['id'];
    if (id !== undefined && id !== null && !isId(id))
      return { type: 'invalid', reason: 'error id is not a string or integer' };
    return { type: 'response', message: value };
  }
  return { type: 'invalid', reason: 'neither a request, a notification nor a response' };
}

export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
