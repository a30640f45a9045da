/**
 * What the callers of `OAuth` hand in and see: its options (functions and places, apart from the plain-data
 * config), the options of `login()`, the prompt a login shows, and the default prompt and wait.
 */
import type { Dispatcher } from 'undici';
import type { AuthChallenge } from '../errors/index.js';
import type { Clock } from '../internal/clock.js';
import { terminalText } from '../internal/terminal-text.js';
import type { CredentialStore } from '../store/types.js';
import type { Resolve } from './address-guard.js';
import type { FetchLike } from './http.js';
import type { DevicePrompt } from './login/device.js';

/** What a login shows the user: a URL to open, or a device code to enter. Never logged. */
export type LoginPrompt = DevicePrompt | { readonly kind: 'browser'; readonly url: string };

/** Functions and places, kept out of the plain-data config. */
export interface OAuthOptions {
  /**
   * Keep credentials in this named store in the OS credential store (shared by every process that names
   * it); default in memory. A plaintext file only if you pass `{ store: plaintextFileStore(name) }`.
   */
  readonly storeName?: string;
  /** Or any store of your own. */
  readonly store?: CredentialStore;
  /** Opens the authorization URL (default: the system browser, no shell). */
  readonly openUrl?: (url: string) => unknown;
  /** Shows a login prompt to the user (default: written to stderr). */
  readonly prompt?: (prompt: LoginPrompt) => void;
  /**
   * The undici dispatcher for requests to authorization servers (a proxy, a CA). It makes the connections,
   * so the private-network rule checks the addresses it resolves here but cannot pin them (docs/oauth.md).
   */
  readonly dispatcher?: Dispatcher;
  /** @internal A fetch of your own (tests). */
  readonly fetch?: FetchLike;
  /**
   * @internal The time source of token expiry, refresh and the device login's polling (tests move it
   * instead of waiting); default the system's.
   */
  readonly clock?: Clock;
  /** @internal The resolver of host names (tests); default the system's. */
  readonly resolve?: Resolve;
  /** @internal How messages name the fixes: the CLI names its flags, not these options. */
  readonly wording?: Wording;
}

/** How a message names each fix it suggests (a library option, or a CLI flag). */
export interface Wording {
  /** Giving a pre-registered client. */
  readonly clientId: string;
  /** Allowing dynamic registration. */
  readonly dcr: string;
  /** Giving a Client ID Metadata Document URL; undefined when there is no way to. */
  readonly clientMetadataUrl: string | undefined;
  /** Dropping the stored registration of this server's authorization server. */
  readonly forgetRegistration: string;
  /** Insisting on DPoP-bound tokens. */
  readonly dpop: string;
}

/** The library's wording: its own option and method names. */
export const LIBRARY_WORDING: Wording = {
  clientId: 'a pre-registered clientId',
  dcr: 'dcr: true',
  clientMetadataUrl: 'a clientMetadataUrl',
  forgetRegistration: 'auth.forgetRegistration()',
  dpop: 'dpop: true',
};

export interface LoginOptions {
  /** The challenge an `auth_required` or `forbidden` error carries (default: the last one seen). */
  readonly challenge?: AuthChallenge | undefined;
  /** Use the device authorization grant (RFC 8628) instead of a browser. */
  readonly device?: boolean;
  /** `false`: do not open a browser, show the URL instead. */
  readonly browser?: boolean;
  readonly openUrl?: (url: string) => unknown;
  readonly prompt?: (prompt: LoginPrompt) => void;
  /** How long to wait for the user (default 5 minutes). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** How long a login waits for the user by default. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** Longest prompt field shown: a URL or a user code past this is cut (with a marker), never a flood. */
const PROMPT_FIELD_MAX = 4096;

/**
 * A prompt field (a URL, a user code: the authorization server chose them) as one line a terminal shows
 * as written: no escape sequence (OSC 8 links, title changes, screen clears), no control or bidi character.
 */
export function promptField(text: string): string {
  return terminalText(text, { oneLine: true, max: PROMPT_FIELD_MAX });
}

/** Shows a login prompt on stderr (the default of `prompt`), every server-chosen field sanitized. */
export function defaultPrompt(prompt: LoginPrompt): void {
  const text =
    prompt.kind === 'browser'
      ? `Open this URL in a browser to log in:\n  ${promptField(prompt.url)}\n`
      : `To log in, open ${promptField(prompt.verificationUri)} and enter the code ${promptField(prompt.userCode)}\n`;
  process.stderr.write(text);
}
