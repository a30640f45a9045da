/**
 * The actions `autos-mcp login <url>`, `logout <url>` and `auth status [url]`, on the CLI's store (see
 * `auth.ts`). What is printed: issuer, scopes, expiry, the store; never a token, a code, a verifier or a
 * secret. The one URL or user code printed is the login prompt, on stderr.
 */
import { isMcpError, McpError } from '../client/index.js';
import type { LoginResult, OAuthConfig, OAuthStatus } from '../oauth/index.js';
import { type ParsedArgs, UsageError } from './args.js';
import { CLI_PREFIX, cliWording, endpointOf, markLogin, openStore } from './auth.js';
import { expiry, oneLine, scopesText, shownUrl, showPrompt, statusText } from './auth-text.js';
import type { CliIo } from './main.js';

/** The one URL positional of `login` / `logout`. */
function urlArgument(parsed: ParsedArgs, command: string): string {
  const [url, extra] = parsed.positionals;
  if (url === undefined) throw new UsageError(`${command} needs the server's URL`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`${JSON.stringify(url.slice(0, 200))} is not a URL`);
  return url;
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
