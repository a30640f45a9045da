/**
 * How a command ends: the exit codes, and the report of a usage error (stderr, and with --json also a
 * document on stdout).
 */

import type { CliIo } from './io.js';
import { CANCELLED_EXIT } from './settings/prompt.js';

/** Exit codes: stable, documented in docs/cli.md. */
export const EXIT = {
  ok: 0,
  toolError: 1,
  usage: 2,
  failure: 3,
  inputRequired: 4,
  /** The tool needs approval and it was refused, or no one could answer (`denied`): nothing was sent. */
  denied: 5,
  cancelled: CANCELLED_EXIT,
} as const;

/**
 * A usage error: the message and the help on stderr, and with --json also the document
 * `{"error": {"kind": "usage", "message": …}}` on stdout. Exit code 2.
 */
export function usageError(
  io: CliIo,
  json: boolean,
  message: string,
  help: string | undefined,
  extra: Readonly<Record<string, unknown>> = {},
): number {
  if (json) io.stdout.write(`${JSON.stringify({ error: { kind: 'usage', message, ...extra } })}\n`);
  io.stderr.write(help === undefined ? `${message}\n` : `${message}\n\n${help}\n`);
  return EXIT.usage;
}
