/** `autos-mcp logout <url>`: the tokens of a URL removed from the CLI's store (and its client registration). */
import { CLI_PREFIX, cliWording, endpointOf, openStore, urlArgument } from '../auth.js';
import { shownUrl } from '../auth-text.js';
import { type Args, defineCommand } from '../command.js';
import type { CliIo } from '../io.js';
import { flag } from '../options.js';

const LOGOUT_OPTIONS = {
  forgetRegistration: flag(
    ['--forget-registration'],
    'also forget the client registered (--dcr) at its authorization server, e.g.\none that forgot it in a restart; the next login --dcr registers anew',
  ),
} as const;

export const logoutCommand = defineCommand({
  name: 'logout',
  usage: ['[--forget-registration] <url>'],
  synopsis: '<url>',
  summary: 'forget the login of a server',
  about: `Removes the tokens of <url> from the CLI's credential store and says whether there were any. Client
registrations stay, unless --forget-registration.`,
  options: LOGOUT_OPTIONS,
  target: 'url',
  run: logout,
});

async function logout(parsed: Args<typeof LOGOUT_OPTIONS>, io: CliIo): Promise<number> {
  const url = urlArgument(parsed.positionals, 'logout');
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
