/**
 * What the HTTP transport needs of a request pool: one `request()` (undici's promise form) and `destroy()`.
 * Two implementations meet it: `NodePool` (node:http / node:https, the default path) and undici's
 * dispatchers (a proxy, a custom CA, or a caller's own `dispatcher`). create-pool.ts chooses between them;
 * nothing else in the transport knows which one it has.
 */
import type { Readable } from 'node:stream';

export interface PoolRequestOptions {
  origin: string | URL;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  signal?: AbortSignal | null | undefined;
}

/** The members of a response the transport reads: status, headers (lowercase names) and a Readable body. */
export interface PoolResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface RequestPool {
  request(options: PoolRequestOptions): Promise<PoolResponse>;
  destroy(): Promise<void>;
}
