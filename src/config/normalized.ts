/**
 * A config after `normalizeConfig`: every field checked, defaults filled in, and each transport's part in
 * the shape that transport takes (the client hands `stdio`/`http` to it; the types meet structurally, so
 * config imports nothing from transport). Plain data except `http.url`, a parsed `URL`.
 */
import type { ProtocolVersionChoice } from '../protocol/versions.js';
import type { EnvSource } from './env-from.js';
import type { ClientInfo, StderrMode } from './server-config.js';
import type { ToolFilterConfig, ToolPin } from './tool-policy.js';

/** The normalized settings the client itself reads, whatever the transport. */
export interface NormalizedCommon {
  timeoutMs: number;
  /** Deadline of the connect phase as a whole (see `BaseServerConfig.connectTimeoutMs`). */
  connectTimeoutMs: number;
  maxMessageBytes: number;
  /** `maxResultChars`, checked; absent: no budget. */
  maxResultChars?: number;
  protocolVersion: ProtocolVersionChoice;
  clientInfo: ClientInfo;
  /** A display name for messages, never a secret. */
  target: string;
  /** Identifies the server for the `auto` era cache (command line or endpoint); undefined: not cached. */
  serverKey: string | undefined;
  /** `tools`, validated; absent: every tool. */
  toolFilter?: ToolFilterConfig;
  /** `pin`, validated (own keys only: look up with `Object.hasOwn`); absent: nothing pinned. */
  pins?: Record<string, ToolPin>;
  /** `extensions`, checked; absent: none from the config. */
  extensions?: readonly string[];
}

/** A stdio server's part: what the stdio transport takes, plus `envFrom`, resolved just before the spawn. */
export interface NormalizedStdio {
  command: string;
  args: readonly string[];
  cwd?: string;
  env: Readonly<Record<string, string>>;
  /** Resolved by the client (`client/open-connection.ts`) just before the spawn; never reaches the transport. */
  envFrom?: Readonly<Record<string, EnvSource>>;
  stderr: StderrMode;
  maxMessageBytes: number;
  isolate?: boolean;
  graceMs?: number;
  maxSkippedLines?: number;
  maxSkippedBytes?: number;
  maxQueuedBytes?: number;
}

/** An HTTP server's part: what the HTTP transport takes. */
export interface NormalizedHttp {
  url: URL;
  headers: Readonly<Record<string, string>>;
  authToken?: string;
  maxMessageBytes: number;
  ca?: readonly string[];
  proxy?: string;
  useEnvProxy?: boolean;
}

export type NormalizedConfig =
  | (NormalizedCommon & { transport: 'stdio'; stdio: NormalizedStdio })
  | (NormalizedCommon & { transport: 'http'; http: NormalizedHttp });
