/**
 * Remembers the ids of abandoned requests (timed out or cancelled) so that their late answers are
 * recognised and dropped, never handed to another call. Bounded: the oldest ids are forgotten first.
 */
import type { RequestId } from '../protocol/jsonrpc.js';

/** Ids remembered at most; a server that answers later than 1024 abandons ago is counted as unknown. */
const MEMORY = 1024;

export class LateAnswers {
  readonly #abandoned = new Set<RequestId>();
  /** Late answers to abandoned requests, dropped. */
  dropped = 0;
  /** Answers to ids never sent (or long forgotten), dropped. */
  unknown = 0;

  remember(id: RequestId): void {
    this.#abandoned.add(id);
    if (this.#abandoned.size > MEMORY) {
      const oldest = this.#abandoned.values().next().value;
      if (oldest !== undefined) this.#abandoned.delete(oldest);
    }
  }

  /** Counts an answer that matched no pending request. */
  count(id: RequestId): void {
    if (this.#abandoned.has(id)) this.dropped++;
    else this.unknown++;
  }
}
