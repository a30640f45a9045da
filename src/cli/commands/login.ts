/**
 * `autos-mcp login <url>`: an OAuth login (browser, printed URL or device code) whose tokens go to the
 * CLI's store (see `../auth.ts`). What is printed: issuer, scopes, expiry, the store; never a token, a
 * code, a verifier or a secret. The one URL or user code printed is the login prompt, on stderr.
 */
import { isMcpError, McpError } from '../../client/index.js';
import type { LoginResult, OAuthConfig } from '../../oauth/index.js';
import { CLI_PREFIX, cliWording, endpointOf, markLogin, openStore, STORE_ENV, urlArgument } from '../auth.js';
import { expiry, oneLine, scopesText, shownUrl, showPrompt } from '../auth-text.js';
import { type Args, defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { flag, nonEmpty, single, TIMEOUT } from '../options.js';
import { UsageError } from '../usage-error.js';

const LOGIN_OPTIONS = {
  noBrowser: flag(['--no-browser'], 'print the authorization URL on stderr instead of opening a browser'),
  device: flag(['--device'], 'device login (RFC 8628): print a code to enter on another device'),
  clientId: single(
    ['--client-id'],
    '<id>',
    'a client registered for autos-mcp at the authorization server',
    nonEmpty('--client-id needs a client id'),
  ),
  clientSecretEnv: single(
    ['--client-secret-env'],
    'V',
    'the client secret is in the environment variable V (never on the command line);\nkeep it set for later refreshes',
    (text) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text))
        throw new UsageError(
          '--client-secret-env needs the name of an environment variable (not the secret)',
        );
      return text;
    },
  ),
  dcr: flag(['--dcr'], 'allow dynamic client registration when no other client is at hand'),
  dpop: flag(['--dpop'], 'ask for DPoP-bound tokens (RFC 9449), for a server that takes them'),
  scopes: {
    names: ['--scope'],
    value: '<s>',
    repeatable: true,
    description: 'a scope to ask for (repeatable; default: what the server asks for)',
    initial: [],
    add: (held: readonly string[], text: string) => {
      if (text.trim() === '') throw new UsageError('--scope needs a scope name');
      return [...held, ...text.split(/\s+/).filter(Boolean)];
    },
  },
  timeoutMs: { ...TIMEOUT, description: 'give up waiting for the user after this long (default 5 minutes)' },
} as const;

export const loginCommand = defineCommand({
  name: 'login',
  usage: ['[options] <url>'],
  summary: 'log in to an OAuth-protected server',
  about: `Logs in to the OAuth-protected MCP server at <url> and keeps the tokens in the CLI's credential store;
tools, call and discover then use them (and refresh them) for that URL. Never starts by itself. By
default it opens the authorization page in the browser, which comes back to a loopback port.
With --json it prints the result as JSON: issuer, resource, scopes, expiresAt, refreshable.
Prints the issuer, scopes and expiry, never a token. Logins are kept in the OS credential store
(service autos-mcp/oauth.cli: the Secret Service on Linux, the macOS Keychain, Windows Credential
Manager); ${STORE_ENV}=<dir> keeps them in a plaintext file <dir>/cli.json (0600) instead, e.g. on
a machine without one.
A login that never comes back from the browser after the server restarted may be using a registration
(--dcr) the server forgot: autos-mcp logout --forget-registration <url>, then log in again.`,
  options: LOGIN_OPTIONS,
  target: 'url',
  run: login,
});

async function login(parsed: Args<typeof LOGIN_OPTIONS>, io: CliIo): Promise<number> {
  const url = urlArgument(parsed.positionals, 'login');
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
