/**
 * Validated, normalized inputs of each transport, declared by the transport itself: config's
 * `normalizeConfig` produces values of this shape from the user's plain-data config (the client hands
 * them over; the types meet structurally), and transports trust them.
 */

export type StderrMode = 'capture' | 'inherit' | 'ignore';

export interface StdioTransportOptions {
  /** An executable, never a shell string; not split on spaces. */
  command: string;
  args: readonly string[];
  cwd?: string;
  /** Extra variables for the child, on top of the allow-listed part of the parent's environment. */
  env: Readonly<Record<string, string>>;
  stderr: StderrMode;
  /** Largest single message (one stdout line) accepted, in bytes. */
  maxMessageBytes: number;
  /** Linux: run the server in its own PID namespace when the platform allows it (opt-in). */
  isolate?: boolean;
  /** How long close() waits after closing stdin before SIGTERM, and again before SIGKILL. Default 2000 ms. */
  graceMs?: number;
  /** stdout lines that are not MCP messages tolerated in all before the connection fails. Default 1000. */
  maxSkippedLines?: number;
  /** Bytes of such lines tolerated in all. Default 1 MiB. */
  maxSkippedBytes?: number;
  /** Bytes of messages waiting to be written to the server's stdin before the connection fails. Default 32 MiB. */
  maxQueuedBytes?: number;
}

export interface HttpTransportOptions {
  /** The MCP endpoint. https, or http on loopback only (checked by normalizeConfig). */
  url: URL;
  /** User headers (managed ones were refused by normalizeConfig). */
  headers: Readonly<Record<string, string>>;
  /** Sent as `Authorization: Bearer …`. Never logged. */
  authToken?: string;
  maxMessageBytes: number;
  /** Extra CA certificates (PEM), added to the system ones. */
  ca?: readonly string[];
  /** Proxy URL; when absent, `HTTPS_PROXY`/`NO_PROXY` are honoured only if `useEnvProxy` is true. */
  proxy?: string;
  useEnvProxy?: boolean;
}
