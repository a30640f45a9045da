/**
 * `autos-mcp login`, `logout` and `auth status`, and the stored login `tools`, `call` and `discover` use
 * for an HTTP target. Logins live in the CLI's named file store `cli` (a 0600 file in the user's config
 * directory; the environment variable `AUTOS_MCP_OAUTH_STORE` names another directory). The OAuth module is
 * loaded with a dynamic import, and only once a login is at hand, so the stdio path and a cold start never
 * load it, and a server without OAuth is unaffected.
 *
 * What is printed: issuer, scopes, expiry, the store. Never a token, a code, a verifier or a secret; the one
 * URL or user code printed is the login prompt, on stderr.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isMcpError, McpError, type ServerConfig } from '../client/index.js';
import type { AuthChallenge } from '../errors/index.js';
import type {
  CredentialStore,
  LoginPrompt,
  LoginResult,
  OAuth,
  OAuthConfig,
  OAuthStatus,
} from '../oauth/index.js';
import type { Wording } from '../oauth/options.js';
import { configDir } from '../store/paths.js';
import { type ParsedArgs, targetUrl, UsageError } from './args.js';
import { safeText } from './format.js';
import type { CliIo } from './main.js';

/** The CLI's named credential store: `oauth.cli` in the OS credential store, or `<dir>/cli.json`. */
export const CLI_STORE = 'cli';
/**
 * Chooses a plaintext file store in this directory (`<dir>/cli.json`) instead of the OS credential store:
 * for machines without one, tests and separate profiles.
 */
export const STORE_ENV = 'AUTOS_MCP_OAUTH_STORE';
/**
 * A file (no secret in it) that says a login was stored in the OS credential store, so a `tools <url>`
 * on a machine that never logged in asks the OS store nothing.
 */
const MARKER = 'cli-logins';

/** The CLI's own record of a login: which client it used, so a later refresh presents the same one. */
const CLI_PREFIX = 'cli-login ';

type OAuthModule = typeof import('../oauth/index.js');

let loaded: Promise<OAuthModule> | undefined;
function loadOAuth(): Promise<OAuthModule> {
  loaded ??= import('../oauth/index.js');
  return loaded;
}

/** The directory of the plaintext store file, when `AUTOS_MCP_OAUTH_STORE` chooses one. */
export function plaintextDir(): string | undefined {
  const override = process.env[STORE_ENV];
  return override !== undefined && override !== '' ? resolve(override) : undefined;
}

async function openStore(): Promise<{ mod: OAuthModule; store: CredentialStore }> {
  const mod = await loadOAuth();
  const dir = plaintextDir();
  return {
    mod,
    store:
      dir === undefined
        ? mod.keyringStore(`oauth.${CLI_STORE}`, {
            otherwise: `set ${STORE_ENV}=<dir> to keep logins in a plaintext file <dir>/${CLI_STORE}.json (0600) instead`,
          })
        : mod.plaintextFileStore(CLI_STORE, { dir }),
  };
}

/** How the OAuth module's messages name the fixes here: the CLI's flags, not the library's options. */
function cliWording(url: string): Wording {
  return {
    clientId: 'a pre-registered client with --client-id',
    dcr: '--dcr',
    clientMetadataUrl: undefined,
    forgetRegistration: `autos-mcp logout --forget-registration ${shellWord(shownUrl(url))}`,
    dpop: '--dpop',
  };
}

/** True when this machine may hold a CLI login (checked without opening any store). */
function mayHoldLogin(): boolean {
  const dir = plaintextDir();
  return existsSync(dir === undefined ? join(configDir(), MARKER) : join(dir, `${CLI_STORE}.json`));
}

async function markLogin(): Promise<void> {
  if (plaintextDir() !== undefined) return;
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  await writeFile(
    join(configDir(), MARKER),
    'logins of the autos-mcp CLI are kept in the OS credential store\n',
    {
      mode: 0o600,
    },
  );
}

/** What the CLI keeps about a login beside the OAuth module's records: never a secret, only its variable's name. */
interface LoginRecord {
  readonly clientId?: string;
  readonly clientSecretEnv?: string;
}

function readRecord(value: Readonly<Record<string, unknown>> | undefined): LoginRecord {
  const clientId = value?.['clientId'];
  const clientSecretEnv = value?.['clientSecretEnv'];
  return {
    ...(typeof clientId === 'string' && clientId !== '' ? { clientId } : {}),
    ...(typeof clientSecretEnv === 'string' && clientSecretEnv !== '' ? { clientSecretEnv } : {}),
  };
}

/** The config of an authorizer for `url` that is the client its login used (the secret read from its variable). */
function configFor(url: string, record: LoginRecord): OAuthConfig {
  const secret = record.clientSecretEnv === undefined ? undefined : process.env[record.clientSecretEnv];
  return {
    url,
    ...(record.clientId !== undefined ? { clientId: record.clientId } : {}),
    ...(record.clientId !== undefined && secret ? { clientSecret: secret } : {}),
  };
}

/** The endpoint as the OAuth module keys it (`new URL(url).href`). */
function endpointOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  }
}

/** `url` for messages: origin and path only (a query or a fragment may carry a secret). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return safeText(`${parsed.origin}${parsed.pathname}`);
  } catch {
    return safeText(url.replace(/[?#].*$/s, ''));
  }
}

/** `url` as a shell word for a `run:` line. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:%~@+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function oneLine(text: string): string {
  return safeText(text).replace(/\s+/g, ' ').trim();
}

/**
 * The stored login for an HTTP target, or undefined: for a stdio server, when `AUTOS_MCP_TOKEN` is set (it
 * wins), when there is no store file, or when the store holds no credential for this URL. Nothing is created
 * on disk. A store that cannot be read is a warning: the call goes ahead without a login.
 */
export async function storedLogin(config: ServerConfig, io: CliIo): Promise<OAuth | undefined> {
  if (!('url' in config) || config.authToken !== undefined) return undefined;
  if (!mayHoldLogin()) return undefined;
  try {
    const { mod, store } = await openStore();
    const endpoint = new URL(config.url).href;
    if (!(await mod.storedLogins(store)).includes(endpoint)) return undefined;
    const record = readRecord(await store.get(CLI_PREFIX + endpoint));
    const auth = mod.createOAuth(configFor(config.url, record), { store, wording: cliWording(config.url) });
    return (await auth.status()).issuer === undefined ? undefined : auth;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    io.stderr.write(`warning: the stored login was not used: ${safeText(why)}\n`);
    return undefined;
  }
}

/**
 * The URL a failed `tools`/`call`/`discover` would log in to, for the `run: autos-mcp login` line:
 * an HTTP target without `AUTOS_MCP_TOKEN` (with a token of its own, a login would not be used).
 */
export function loginHintTarget(parsed: ParsedArgs): string | undefined {
  if (process.env['AUTOS_MCP_TOKEN']) return undefined;
  return targetUrl(parsed);
}

/**
 * After a refusal, `run: autos-mcp login <url>` when it is OAuth's: a stored login that failed (no status),
 * a Bearer/DPoP challenge on a 401 (S25/basic/authorization), or on a 403 naming its resource metadata or
 * asking for more scope. A 401 without one: a line on passing a token. Else '' (the message says why).
 */
export function loginHint(error: unknown, url: string | undefined): string {
  if (url === undefined || !isMcpError(error)) return '';
  if (error.kind !== 'auth_required' && error.kind !== 'forbidden') return '';
  if (isOAuthRefusal(error)) return `run: autos-mcp login ${shellWord(shownUrl(url))}\n`;
  if (error.status === 401)
    return "the server asks for no OAuth login: if it takes a token, pass it with --header 'Authorization: …' or AUTOS_MCP_TOKEN\n";
  return '';
}

function isOAuthRefusal(error: { status?: number; challenge?: AuthChallenge }): boolean {
  if (error.status === undefined) return true;
  const challenge = error.challenge;
  if (challenge === undefined || !/^(bearer|dpop)$/i.test(challenge.scheme)) return false;
  return (
    error.status === 401 ||
    challenge.resourceMetadata !== undefined ||
    challenge.error === 'insufficient_scope'
  );
}

/** The one URL positional of `login` / `logout`. */
function urlArgument(parsed: ParsedArgs, command: string): string {
  const [url, extra] = parsed.positionals;
  if (url === undefined) throw new UsageError(`${command} needs the server's URL`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  return url;
}

function showPrompt(io: CliIo, prompt: LoginPrompt): void {
  if (prompt.kind === 'browser') {
    io.stderr.write(
      `Open this URL in a browser to log in:\n\n  ${oneLine(prompt.url)}\n\nWaiting for the browser to come back…\n`,
    );
    return;
  }
  const complete =
    prompt.verificationUriComplete === undefined
      ? ''
      : `  (or open ${oneLine(prompt.verificationUriComplete)}, which carries the code)\n`;
  const minutes = Math.max(1, Math.round(prompt.expiresInSeconds / 60));
  io.stderr.write(
    `To log in, open ${oneLine(prompt.verificationUri)} and enter the code: ${oneLine(prompt.userCode)}\n` +
      complete +
      `Waiting for the approval (the code expires in ${minutes} min)…\n`,
  );
}

/** `2026-01-01T10:00:00.000Z (in 59 min)`, or a note when the server gave no expiry. */
function expiry(expiresAt: string | undefined, refreshable: boolean): string {
  const refresh = refreshable ? 'refreshable' : 'not refreshable';
  if (expiresAt === undefined) return `not given by the server (${refresh})`;
  const left = Date.parse(expiresAt) - Date.now();
  const when =
    left <= 0
      ? 'expired'
      : left < 120_000
        ? `in ${Math.round(left / 1000)} s`
        : left < 7_200_000
          ? `in ${Math.round(left / 60_000)} min`
          : `in ${Math.round(left / 3_600_000)} h`;
  return `${expiresAt} (${when}; ${refresh})`;
}

function scopesText(scopes: readonly string[]): string {
  return scopes.length === 0 ? '(none given)' : oneLine(scopes.join(' '));
}

export async function loginCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const url = urlArgument(parsed, 'login');
  const endpoint = endpointOf(url);
  let clientSecret: string | undefined;
  if (parsed.clientSecretEnv !== undefined) {
    if (parsed.clientId === undefined) throw new UsageError('--client-secret-env needs --client-id');
    clientSecret = process.env[parsed.clientSecretEnv];
    if (clientSecret === undefined || clientSecret === '')
      throw new UsageError(
        `the environment variable ${parsed.clientSecretEnv} (--client-secret-env) is not set`,
      );
  }
  const config: OAuthConfig = {
    url,
    ...(parsed.clientId !== undefined ? { clientId: parsed.clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(parsed.dcr ? { dcr: true } : {}),
    ...(parsed.scopes.length > 0 ? { scopes: parsed.scopes } : {}),
    // DPoP where both servers take it (the library's default); --dpop insists on it.
    ...(parsed.dpop ? { dpop: true } : {}),
  };
  const { mod, store } = await openStore();
  const auth = mod.createOAuth(config, { store, wording: cliWording(url) });

  const timeoutMs = parsed.timeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          // A timeout as the reason: a login waiting for the browser ends with it (and its hints).
          controller.abort(
            new McpError('timeout', `the login did not finish within ${timeoutMs} ms (--timeout)`, {
              delivery: 'not_sent',
            }),
          );
        }, timeoutMs);
  if (!parsed.device && !parsed.noBrowser)
    io.stderr.write(
      `Logging in to ${shownUrl(url)} in your browser (no browser here? use --no-browser or --device)…\n`,
    );
  let result: LoginResult;
  try {
    result = await auth.login({
      device: parsed.device,
      browser: !parsed.noBrowser,
      prompt: (prompt) => showPrompt(io, prompt),
      signal: controller.signal,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  } catch (error) {
    if (timedOut && isMcpError(error) && error.kind === 'cancelled')
      throw new McpError('timeout', `the login did not finish within ${timeoutMs} ms (--timeout)`, {
        delivery: 'not_sent',
      });
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Which client this login used, so that `tools`/`call` refresh as the same client (no secret is kept).
  await markLogin();
  await store.set(CLI_PREFIX + endpoint, {
    ...(parsed.clientId !== undefined ? { clientId: parsed.clientId } : {}),
    ...(parsed.clientSecretEnv !== undefined ? { clientSecretEnv: parsed.clientSecretEnv } : {}),
  });

  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  io.stdout.write(
    [
      `Logged in to ${shownUrl(url)}`,
      `  issuer:  ${oneLine(result.issuer)}`,
      `  scopes:  ${scopesText(result.scopes)}`,
      `  expires: ${expiry(result.expiresAt, result.refreshable)}`,
      `  store:   ${store.description}`,
    ].join('\n') + '\n',
  );
  return 0;
}

export async function logoutCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const url = urlArgument(parsed, 'logout');
  const endpoint = endpointOf(url);
  const { mod, store } = await openStore();
  const auth = mod.createOAuth({ url }, { store, wording: cliWording(url) });
  // The registration first: its issuer may be found through the stored login that logout removes.
  const forgotten = parsed.forgetRegistration ? await auth.forgetRegistration() : undefined;
  const removed = await auth.logout();
  // Read first: deleting a key that is not there would still create the store directory.
  if ((await store.get(CLI_PREFIX + endpoint)) !== undefined) await store.delete(CLI_PREFIX + endpoint);
  if (parsed.json) {
    const registration = forgotten === undefined ? {} : { registrationForgotten: forgotten };
    io.stdout.write(`${JSON.stringify({ url: shownUrl(url), removed, ...registration })}\n`);
    return 0;
  }
  io.stdout.write(
    removed
      ? `Logged out of ${shownUrl(url)}: its tokens were removed from ${store.description}\n`
      : `Not logged in to ${shownUrl(url)}: nothing was removed\n`,
  );
  if (forgotten !== undefined)
    io.stdout.write(
      forgotten
        ? 'The client registered at its authorization server was forgotten: the next login registers anew (--dcr)\n'
        : 'No client registration was stored for its authorization server\n',
    );
  return 0;
}

export async function authCommand(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const [sub, url, extra] = parsed.positionals;
  if (sub !== 'status')
    throw new UsageError(
      sub === undefined
        ? 'auth needs a subcommand: status'
        : `unknown auth subcommand ${JSON.stringify(sub)}`,
    );
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  if (url !== undefined && !/^https?:\/\//i.test(url))
    throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  const { mod, store } = await openStore();
  if (url !== undefined) {
    endpointOf(url);
    const status = await mod.createOAuth({ url }, { store }).status();
    io.stdout.write(parsed.json ? `${JSON.stringify(status)}\n` : statusText(status, true));
    return 0;
  }
  const statuses: OAuthStatus[] = [];
  for (const endpoint of await mod.storedLogins(store)) {
    try {
      statuses.push(await mod.createOAuth({ url: endpoint }, { store }).status());
    } catch (error) {
      if (!(error instanceof McpError && error.kind === 'config')) throw error;
      // an entry this version cannot read: left out of the list
    }
  }
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify({ store: store.description, logins: statuses })}\n`);
    return 0;
  }
  if (statuses.length === 0) {
    io.stdout.write(`No stored logins (${store.description})\n`);
    return 0;
  }
  io.stdout.write(
    `Stored logins (${store.description}):\n${statuses.map((s) => statusText(s, false)).join('')}`,
  );
  return 0;
}

function statusText(status: OAuthStatus, withStore: boolean): string {
  const url = shownUrl(status.url);
  const lines: string[] = [];
  if (status.issuer === undefined) {
    lines.push(`${url}: not logged in`, `  run: autos-mcp login ${shellWord(url)}`);
  } else {
    lines.push(
      `${url}: ${status.loggedIn ? 'logged in' : 'the login has expired'}`,
      `  issuer:  ${oneLine(status.issuer)}`,
      `  scopes:  ${scopesText(status.scopes)}`,
      `  expires: ${expiry(status.expiresAt, status.refreshable)}`,
      `  type:    ${oneLine(status.tokenType ?? 'bearer')}`,
    );
    if (!status.loggedIn) lines.push(`  run: autos-mcp login ${shellWord(url)}`);
  }
  if (withStore) lines.push(`  store:   ${status.store}`);
  return `${lines.join('\n')}\n`;
}
