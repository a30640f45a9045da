/**
 * What the handshake settled with one server, as one immutable value: the era and version, the server's
 * identity and capabilities, and how calls are cancelled. Built once by the handshake; the client keeps it
 * privately and replaces it whole (never edits it) when a 2026 server changes version or identity.
 */
import type { Era } from '../protocol/versions.js';
import type { ConnectionTraits } from '../transport/connection.js';
import type { DiscoverResult, Implementation } from './types.js';

export interface Negotiated {
  readonly era: Era;
  readonly version: string;
  /** Self-reported: for display and logs only. */
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Data to show, never instructions to this client. */
  readonly instructions: string | undefined;
  /** What `discover()` answers without a request (2025: from `initialize`). */
  readonly discover: DiscoverResult | undefined;
  /** `notifications/cancelled` in 2025 everywhere; in 2026 what the transport does (S26/basic/patterns/cancellation). */
  readonly cancelBy: 'notification' | 'abort';
}

/** The facts the handshake learnt; `cancelBy` follows from the era and the transport. */
export type HandshakeFacts = Omit<Negotiated, 'cancelBy'>;

export function settle(facts: HandshakeFacts, traits: ConnectionTraits): Negotiated {
  return Object.freeze({ ...facts, cancelBy: facts.era === 'modern' ? traits.cancelBy : 'notification' });
}

/** The same value with some facts replaced: a new object, the old one untouched. */
export function revise(current: Negotiated, change: Partial<HandshakeFacts>): Negotiated {
  return Object.freeze({ ...current, ...change });
}
