/**
 * The options of `settings set|get|list|rm`. `--env KEY`, `--header NAME` and `--auth-token` name the
 * secrets `set` reads (from stdin or a hidden prompt, in the order given): a value typed on the command
 * line is refused unseen.
 */
import type { Option } from '../command.js';
import { flag, nonEmpty, single, TIMEOUT } from '../options.js';
import { UsageError } from '../usage-error.js';

/** A secret `settings set` reads (its value never comes from argv). */
export type SecretItem =
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'authToken' };

/** Secrets named so far, each with where it stood on the command line (the order values are read in). */
type Named = readonly (readonly [number, SecretItem])[];

const ENV_KEY = /^[^=\0]{1,256}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

function secret(
  names: readonly [string, ...string[]],
  value: string | undefined,
  description: string,
  read: (text: string) => SecretItem,
): Option<Named> {
  return {
    names,
    ...(value === undefined ? {} : { value }),
    repeatable: true,
    description,
    initial: [],
    add: (held, text, at) => [...held, [at, read(text)]],
  };
}

const SECRET_ENV = secret(
  ['--env'],
  'KEY',
  'a secret environment variable: its value is read from stdin or a hidden prompt (repeatable)',
  (text) => {
    if (text.includes('='))
      throw new UsageError(
        "--env takes only the variable's name here (--env KEY); its value is read from stdin or a hidden prompt, never from the command line",
      );
    if (!ENV_KEY.test(text)) throw new UsageError('--env needs the name of a variable');
    return { kind: 'env', name: text };
  },
);

const SECRET_HEADER = secret(
  ['--header'],
  'NAME',
  'a secret HTTP header: its value is read the same way (repeatable)',
  (text) => {
    if (text.includes(':'))
      throw new UsageError(
        "--header takes only the header's name here (--header NAME); its value is read from stdin or a hidden prompt, never from the command line",
      );
    if (!HEADER_NAME.test(text)) throw new UsageError('--header needs a header name (letters, digits, -)');
    return { kind: 'header', name: text };
  },
);

const AUTH_TOKEN = secret(['--auth-token'], undefined, 'the bearer token, read the same way', () => ({
  kind: 'authToken',
}));

const STORE_TIMEOUT = { ...TIMEOUT, description: 'deadline of one OS credential store call (default 10000)' };

/** The options of every `settings` subcommand: where the settings are kept. */
const STORE_OPTIONS = {
  plaintextFile: flag(
    ['--plaintext-file'],
    'keep them in a plaintext file (0600) instead of the OS credential store (see above)',
  ),
  timeoutMs: STORE_TIMEOUT,
} as const;

export const SET_OPTIONS = {
  secretEnv: SECRET_ENV,
  secretHeaders: SECRET_HEADER,
  authToken: AUTH_TOKEN,
  setCommand: single(
    ['--command'],
    'c',
    'the server command (non-secret; or -- command args…)',
    nonEmpty('--command needs a command'),
  ),
  setArgs: {
    names: ['--arg'],
    value: 'a',
    repeatable: true,
    description: 'an argument of the server command (repeatable)',
    initial: undefined,
    add: (held, text) => [...(held ?? []), text],
  } satisfies Option<readonly string[] | undefined>,
  setUrl: single(['--url'], 'u', 'the server URL', (text) => text),
  cwd: single(['--cwd'], 'dir', 'the working directory of the server command', (text) => text),
  replace: flag(['--replace'], 'replace the saved settings instead of merging into them'),
  jsonConfig: flag(
    ['--json-config'],
    'read a whole partial config as JSON from stdin instead (not from a terminal)',
  ),
  ...STORE_OPTIONS,
} as const;

export const GET_OPTIONS = {
  reveal: flag(['--reveal'], 'show the secret values instead of masking them'),
  ...STORE_OPTIONS,
} as const;

export const STORE_ONLY_OPTIONS = STORE_OPTIONS;

/** The secrets `set` reads, in the order their options were given. */
export function secretItems(line: {
  readonly secretEnv: Named;
  readonly secretHeaders: Named;
  readonly authToken: Named;
}): SecretItem[] {
  return [...line.secretEnv, ...line.secretHeaders, ...line.authToken]
    .sort((a, b) => a[0] - b[0])
    .map(([, item]) => item);
}
