/** `autos-mcp auth status [<url>]`: what the CLI's store holds, login by login; never a token. */
import { McpError } from '../../client/index.js';
import type { OAuthStatus } from '../../oauth/index.js';
import { endpointOf, openStore } from '../auth.js';
import { statusText } from '../auth-text.js';
import { type Args, defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';

export const authCommand = defineCommand({
  name: 'auth',
  usage: ['status [<url>]'],
  summary: 'what is logged in (never a token)',
  about: `With a URL: whether it is logged in, the issuer, scopes, expiry, whether the login can be refreshed, and
the store. Without: the same for every login in the store. Never prints a token.`,
  options: {},
  target: 'url',
  run: authStatus,
});

async function authStatus(parsed: Args<Record<never, never>>, io: CliIo): Promise<number> {
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
