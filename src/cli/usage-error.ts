/** A command line the CLI cannot run as typed: exit code 2, the message, then the command's help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Fields added to the `--json` error document (`{"error": {"kind": "usage", "message", …details}}`). */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  /** What follows the message on stderr: the command's help (undefined), nothing (false), or this text. */
  readonly help: string | false | undefined;
  constructor(
    message: string,
    options: { details?: Readonly<Record<string, unknown>>; help?: string | false } = {},
  ) {
    super(message);
    this.details = options.details;
    this.help = options.help;
  }
}
