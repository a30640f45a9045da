/**
 * The approval prompt of `call`: a tool the config's `tools.approve` names is called only after a `y` typed
 * on the terminal. The CLI answers only when stdin and stderr are both terminals (someone is there to see
 * the question and type); otherwise it gives no handler and the client refuses the call (`denied`, nothing
 * sent, exit code 5). What is shown comes from the config and the command line, made terminal-safe and
 * bounded all the same: the arguments may hold a file's text.
 */
import type { ApprovalHandler, ApprovalRequest } from '../client/index.js';
import { terminalText } from '../internal/terminal-text.js';
import type { CliIo, SecretInput } from './io.js';

/** Most characters of the arguments shown in the question. */
const MAX_SHOWN_ARGUMENTS = 400;
/** Longest answer line read; the rest of a longer line is ignored (the answer is then no). */
const MAX_ANSWER = 64;

function oneLine(text: string, max: number): string {
  return terminalText(text, { max, oneLine: true });
}

/** The question, on one or two lines: `Call TOOL on SERVER? [y/N] `, the hints and arguments above it. */
export function approvalQuestion(request: ApprovalRequest): string {
  const hints = request.annotations ?? {};
  const marks = [
    hints.destructiveHint === true ? 'destructive' : undefined,
    hints.readOnlyHint === true ? 'read-only' : undefined,
    hints.idempotentHint === true ? 'idempotent' : undefined,
  ].filter((mark) => mark !== undefined);
  const shown = oneLine(JSON.stringify(request.arguments) ?? '{}', MAX_SHOWN_ARGUMENTS);
  const about = marks.length === 0 ? '' : ` (the server says: ${marks.join(', ')})`;
  const server = oneLine(request.server ?? 'the server', 200);
  return `${oneLine(request.tool, 200)} needs approval${about}; arguments: ${shown}\nCall ${oneLine(request.tool, 200)} on ${server}? [y/N] `;
}

/** One line typed on `stdin` (without its newline), or '' when stdin ends first. */
function readAnswer(stdin: SecretInput): Promise<string> {
  return new Promise((resolve) => {
    let line = '';
    const done = (): void => {
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.off('close', done);
      stdin.pause();
      resolve(line);
    };
    const onData = (chunk: string): void => {
      const nl = chunk.indexOf('\n');
      line = (line + (nl === -1 ? chunk : chunk.slice(0, nl))).slice(0, MAX_ANSWER);
      if (nl !== -1) done();
    };
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', done);
    stdin.on('close', done);
    stdin.resume();
  });
}

/** The `onApprove` of `call`: a question on the terminal; undefined when no one is there to answer. */
export function terminalApprover(io: CliIo): ApprovalHandler | undefined {
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY !== true || io.stderr.isTTY !== true) return undefined;
  return async (request) => {
    io.stderr.write(approvalQuestion(request));
    const answer = (await readAnswer(stdin)).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  };
}
