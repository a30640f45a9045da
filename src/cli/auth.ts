/**
 * The CLI's logins: the store they live in and the stored login `tools`, `call` and `discover` use for an
 * HTTP target. Logins live in the CLI's named file store `cli` (a 0600 file in the user's config
 * directory; the environment variable `AUTOS_MCP_OAUTH_STORE` names another directory). The OAuth module is
 * loaded with a dynamic import, and only once a login is at hand, so the stdio path and a cold start never
 * load it, and a server without OAuth is unaffected. The actions `login`, `logout` and `auth status` are
 * `commands/login.ts`, `commands/logout.ts` and `commands/auth.ts`; what they print, `auth-text.ts`; the
 * hint after a refusal, `login-hint.ts`.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ServerConfig } from '../client/index.js';
import type { CredentialStore, OAuth, OAuthConfig } from '../oauth/index.js';
import type { Wording } from '../oauth/options.js';
import { configDir } from '../store/paths.js';
import { shellWord, shownUrl } from './auth-text.js';
import { safeText } from './format.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

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
export const CLI_PREFIX = 'cli-login ';

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

export async function openStore(): Promise<{ mod: OAuthModule; store: CredentialStore }> {
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
export function cliWording(url: string): Wording {
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

export async function markLogin(): Promise<void> {
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
export function endpointOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  }
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

/** The one URL word of `login` / `logout`. */
export function urlArgument(positionals: readonly string[], command: string): string {
  const [url, extra] = positionals;
  if (url === undefined) throw new UsageError(`${command} needs the server's URL`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  return url;
}
