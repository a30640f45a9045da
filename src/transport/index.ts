/**
 * `autos-mcp/transport`: for transport and test authors, not for calling tools. The connection contract a
 * transport implements (handed to `connect(config, { connection })`), the in-memory pair that implements it
 * for tests and in-process servers, and the authorizer seam of HTTP (what OAuth plugs into). Importing it
 * starts nothing and loads no transport. Read docs/extending.md.
 */
export type { JsonRpcMessage } from '../protocol/jsonrpc.js';
export type {
  AuthorizationHeaders,
  AuthorizationRequest,
  AuthorizationValue,
  Authorizer,
  AuthRefusal,
} from './authorizer.js';
export type {
  Connection,
  ConnectionCloseReport,
  ConnectionEvents,
  ConnectionProcess,
  ConnectionTraits,
  NegotiatedTerms,
  ProcessReport,
  SendOptions,
  TransportKind,
} from './connection.js';
export {
  createMemoryPair,
  type MemoryDelivery,
  type MemoryPair,
  type MemoryPairOptions,
  type MemoryServerEnd,
} from './memory.js';
