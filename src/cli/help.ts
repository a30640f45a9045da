/**
 * The help texts of the `autos-mcp` commands (`autos-mcp --help`, `autos-mcp <command> --help`), keyed by
 * command; `main` is the overview. A usage error prints the command's text after its message.
 */

import { STORE_ENV } from './auth.js';
import { SETTINGS_BACKEND_ENV, SETTINGS_DIR_ENV } from './settings/store.js';
import { TYPES_HELP } from './types-command.js';

const TARGET_HELP = `A target is a URL (https://…, or http:// on loopback), or -- followed by a command and its
arguments (never a shell string), or the name of a configured server (autos-mcp servers lists them; for
call, NAME.TOOL), or --settings <name> (saved with autos-mcp settings set); with another target too, the
saved settings are merged over it (the target gives the server, the settings the secrets).
--config FILE reads configured servers from that file only; --trust-project starts the servers of project
config files not trusted yet, for this run (trust one for good: autos-mcp servers trust FILE).`;

/** The help of each command (`main`: the overview), as printed. */
export const HELP: Record<string, string> = {
  main: `autos-mcp — call the tools of MCP servers on demand.

Usage:
  autos-mcp tools [options] <target>               list the server's tools
  autos-mcp call [options] <tool> [key=value…] <target>
                                                   call one tool
  autos-mcp discover [options] <target>            what the server says about itself
  autos-mcp types [--out file.ts] <target>         a typed TypeScript module of the server's tools
  autos-mcp demo                                   run the main job against the bundled demo server
  autos-mcp demo-server                            the bundled demo MCP server, on stdio (a target:
                                                   autos-mcp tools -- autos-mcp demo-server)
  autos-mcp login [options] <url>                  log in to an OAuth-protected server
  autos-mcp logout <url>                           forget the login of a server
  autos-mcp auth status [<url>]                    what is logged in (never a token)
  autos-mcp settings set|get|list|rm [<name>]      saved server configs and secrets (OS credential store)
  autos-mcp servers [trust [<file>]]               the servers configured in MCP clients' files; trust one
  autos-mcp pin <name> [<tool>…]                   approve a configured server's tool definitions as they are now

${TARGET_HELP}
An HTTP target uses the stored login of its URL, when there is one (see autos-mcp login --help).

Options:
  --json               machine-readable output on stdout
  --protocol <v>       2025-11-25 (default), 2026-07-28 or auto
  --timeout <ms>       deadline per step (default 60000)
  --header "N: v"      extra HTTP header (repeatable); AUTOS_MCP_TOKEN sets a bearer token
  --env NAME=value     extra environment variable for a stdio server (repeatable)
  --cwd <dir>          working directory of a stdio server
  --settings <name>    use the saved settings <name> (see autos-mcp settings --help)
  --config <file>      configured servers from this file only (see autos-mcp servers --help)
  --trust-project      start servers of project config files not trusted yet, for this run
  -h, --help           help (also after a command; call <tool> --help <target>: that tool's parameters)
  -V, --version        the version of autos-mcp

Exit codes: 0 ok, 1 the tool returned isError, 2 usage or config error, 3 failure
(connection, protocol, timeout…), 4 the server needs input (2026 MRTR), 130 a secret prompt was
cancelled (Ctrl-C).`,
  tools: `Usage: autos-mcp tools [--json] [--protocol v] [--timeout ms] <target>

Lists every tool (all pages) with its parameters: type, required or optional, default, description.
Tools with malformed definitions are listed as left out, with the reason.
${TARGET_HELP}
Example: autos-mcp tools -- autos-mcp demo-server`,
  call: `Usage: autos-mcp call [--json] [--protocol v] [--timeout ms] <tool> [key=value…] <target>
       autos-mcp call <tool> --help <target>       that tool's parameters (nothing is called)

Calls one tool. Arguments, coerced by the tool's inputSchema (a string stays a string):
  key=value        the value as the schema types it: string, integer, number, boolean, enum, or
                   JSON for an array or object (tags='["a","b"]')
  key:=<json>      the value as JSON, whatever the schema says (count:=5, id:='"0012"')
  key=@<file>      the file's text (key=@- reads stdin); key:=@<file> parses it as JSON
  '{"k":"v"}'      a JSON object of arguments; - reads it from stdin
An unknown key, a missing required one or a value of the wrong type is exit code 2 before anything
is sent, with the tool's parameters. Progress is shown on stderr. The tool name is checked against
the server's list first: an unknown name is exit code 2, with the server's tool names (up to 20;
else the closest).
A URL target comes first or last: autos-mcp call https://host/mcp echo text=hi
${TARGET_HELP}
Images, audio and embedded blobs are written to files (a fresh private directory under the temp
directory, left for you) and shown as one line each: image/png 1234 bytes → /tmp/…/ab12….png; with
--json, the result carries path, mimeType, bytes and sha256 instead of the base64 data.
Example: autos-mcp call echo text=hi -- autos-mcp demo-server
Exit code 1 means the tool ran and reported an error (isError); 3 means the call failed.`,
  types: TYPES_HELP,
  discover: `Usage: autos-mcp discover [--json] [--protocol v] <target>

Shows the protocol version in use, server info, capabilities and instructions (instructions are data
from the server, shown as is).
${TARGET_HELP}`,
  login: `Usage: autos-mcp login [--device] [--no-browser] [--client-id id] [--client-secret-env VAR]
                       [--dcr] [--dpop] [--scope s]... [--timeout ms] [--json] <url>

Logs in to the OAuth-protected MCP server at <url> and keeps the tokens in the CLI's credential store;
tools, call and discover then use them (and refresh them) for that URL. Never starts by itself.
  (default)              open the authorization page in the browser; it comes back to a loopback port
  --no-browser           print the authorization URL on stderr instead of opening a browser
  --device               device login (RFC 8628): print a code to enter on another device
  --client-id <id>       a client registered for autos-mcp at the authorization server
  --client-secret-env V  the client secret is in the environment variable V (never on the command line);
                         keep it set for later refreshes
  --dcr                  allow dynamic client registration when no other client is at hand
  --dpop                 ask for DPoP-bound tokens (RFC 9449), for a server that takes them
  --scope <s>            a scope to ask for (repeatable; default: what the server asks for)
  --timeout <ms>         give up waiting for the user after this long (default 5 minutes)
  --json                 print the result as JSON: issuer, resource, scopes, expiresAt, refreshable
Prints the issuer, scopes and expiry, never a token. Logins are kept in the OS credential store
(service autos-mcp/oauth.cli: the Secret Service on Linux, the macOS Keychain, Windows Credential
Manager); ${STORE_ENV}=<dir> keeps them in a plaintext file <dir>/cli.json (0600) instead, e.g. on
a machine without one.
A login that never comes back from the browser after the server restarted may be using a registration
(--dcr) the server forgot: autos-mcp logout --forget-registration <url>, then log in again.`,
  logout: `Usage: autos-mcp logout [--forget-registration] [--json] <url>

Removes the tokens of <url> from the CLI's credential store and says whether there were any. Client
registrations stay, unless:
  --forget-registration  also forget the client registered (--dcr) at its authorization server, e.g.
                         one that forgot it in a restart; the next login --dcr registers anew`,
  auth: `Usage: autos-mcp auth status [--json] [<url>]

With a URL: whether it is logged in, the issuer, scopes, expiry, whether the login can be refreshed, and
the store. Without: the same for every login in the store. Never prints a token.`,
  settings: `Usage: autos-mcp settings set <name> [--env KEY]... [--header NAME]... [--auth-token]
                                   [--command c] [--arg a]... [--url u] [--cwd dir] [--replace]
       autos-mcp settings set <name> --json-config < config.json
       autos-mcp settings get <name> [--reveal] [--json]
       autos-mcp settings list [--json]
       autos-mcp settings rm <name>

Named server configs, full or partial (only the secrets, or a whole server), kept in the OS credential
store. Use them with --settings <name> on tools, call and discover.
  set             saves; merged into settings of the same name (env and headers one level deep)
                  unless --replace. Secret VALUES are never taken from the command line: for each
                  --env KEY, --header NAME and --auth-token, in the order given, one line is read from
                  stdin, or asked for at a hidden prompt on a terminal (nothing echoed)
  --json-config   read a whole partial config as JSON from stdin instead (not from a terminal)
  --command, --arg, --url, --cwd
                  the non-secret fields, as options (or -- command args…)
  get             prints the settings with every secret masked (•••• (40 chars)); --reveal shows them
  list, rm        the names saved; remove one (exit code 0 whether or not it was there)
  --plaintext-file
                  keep them in a plaintext file (0600) instead: ~/.config/autos-mcp/oauth/settings.json
                  on Linux, or $${SETTINGS_DIR_ENV}/settings.json; also
                  ${SETTINGS_BACKEND_ENV}=plaintext-file (a note on stderr says when it is used)
  --timeout <ms>  deadline of one OS credential store call (default 10000)
No OS credential store (e.g. no Secret Service on Linux): an error that names the fix, exit code 2.
Ctrl-C at a prompt: nothing is saved, exit code 130.
Example: printf '%s\\n' "$API_KEY" | autos-mcp settings set demo --env API_KEY`,
  servers: `Usage: autos-mcp servers [--json] [--config FILE]
       autos-mcp servers trust [FILE]             trust a project config file's current content
       autos-mcp servers untrust FILE

Lists the MCP servers configured in the files of MCP clients and autos-mcp's own: the project's
(autos-mcp.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, opencode.json[c] in
this directory and up to the git root), then the user's (autos-mcp's servers.json, ~/.claude.json,
Claude Desktop, ~/.cursor/mcp.json, VS Code's user mcp.json, Windsurf, ~/.codex/config.toml, OpenCode).
The first definition of a name wins; the others are shown as shadowed. Each server is a target:
autos-mcp tools NAME, autos-mcp call NAME.TOOL key=value, autos-mcp discover NAME.
A project file can run any command: its servers start only once you trust its current content
(servers trust FILE; without FILE, every project file found here), or with --trust-project for one run.
Problems (a malformed file and its line, an entry that cannot be used and why) are printed on stderr.
Placeholders (\${VAR}, \${VAR:-default}, \${env:VAR}) are shown as written, and read only at connect.`,
  pin: `Usage: autos-mcp pin NAME [TOOL…] [--config FILE] [--trust-project] [--json]

Lists the configured server NAME's tools and stores the current definition of each (or of the TOOLs
named) as approved, by digest, in pinned-tools.json in autos-mcp's config directory. From then on a
pinned tool whose name, title, description, schemas or annotations changed is refused before it is
called (tool_changed, nothing sent), and autos-mcp tools NAME marks it. Run pin again to approve a change.`,
  demo: `Usage: autos-mcp demo

Starts the bundled demo server (autos-mcp demo-server) and shows the main job: list tools, call one,
watch progress, get an image, and see a tool error returned as a result.`,
  'demo-server': `Usage: autos-mcp demo-server

The demo MCP server shipped with autos-mcp, on stdio (one JSON-RPC message per line; revisions
2025-11-25 and 2026-07-28). Tools: echo, slow (progress), image (a PNG), confirm (asks through a
2026-07-28 input_required elicitation), typed (returns its arguments, to see their types), fail (an
isError result).
Start it as a target: autos-mcp call echo text=hi -- autos-mcp demo-server
(or, without installing: npx -y autos-mcp call echo text=hi -- npx -y autos-mcp demo-server).`,
};
