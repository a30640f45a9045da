/**
 * The human debug log: one line per diagnostics event (and per free-text note) on stderr, in the format
 * of `util.debuglog` (`AUTOS-MCP <pid>: …`). Loaded only when `AUTOS_MCP_DEBUG` or `NODE_DEBUG` asks for
 * it (publish.ts). Every line goes through the one terminal sanitizer: server names, tool names and
 * error messages are server-controlled text.
 */
import { terminalText } from '../internal/terminal-text.js';
import {
  type DiagnosticsError,
  type HttpRequestEvent,
  diagnosticsChannels as N,
  type RequestStartEvent,
} from './channels.js';
import { NOTE } from './publish.js';
import type { DiagnosticsEvents } from './subscribe.js';

/** One line is cut to this many characters (an error message may quote a long server text). */
const MAX_LINE = 2000;

type Writer = (line: string) => void;

/** The payload of each name the log writes a line for: every channel's, and the free-text note's. */
type LoggedEvents = DiagnosticsEvents & { [NOTE]: { connectionId?: string; text: string } };

function stderrWriter(line: string): void {
  process.stderr.write(`AUTOS-MCP ${process.pid}: ${line}\n`);
}

/** A subscriber that writes one sanitized line per event with `write` (default: stderr). */
export function createDebugLog(
  write: Writer = stderrWriter,
): (message: unknown, name: string | symbol) => void {
  return (message, name) => {
    const channel = String(name);
    if (!logged(channel)) return;
    // cast: publish.ts puts on each channel that channel's payload (channels.ts), as subscribeDiagnostics trusts
    const text = describe(channel, message as LoggedEvents[typeof channel]);
    write(terminalText(text, { oneLine: true, max: MAX_LINE }));
  };
}

function ms(value: unknown): string {
  return typeof value === 'number' ? `${value < 10 ? value.toFixed(1) : Math.round(value)}ms` : '?ms';
}

function failure(error: DiagnosticsError | undefined): string {
  if (error === undefined) return 'failed';
  return `${error.kind} (delivery ${error.delivery}): ${error.message}`;
}

/** The line for one event, without the prefix. */
export function describe<Name extends keyof LoggedEvents>(name: Name, e: LoggedEvents[Name]): string {
  const id = typeof e.connectionId === 'string' ? `[${e.connectionId}] ` : '';
  const short = name.startsWith('autos-mcp:') ? name.slice('autos-mcp:'.length) : name;
  return `${id}${short} ${LINES[name](e)}`;
}

/** Whether the log has a line for events named `name`. */
function logged(name: string): name is keyof LoggedEvents {
  return Object.hasOwn(LINES, name);
}

/** The body of the line, per event name. */
const LINES: { [Name in keyof LoggedEvents]: (e: LoggedEvents[Name]) => string } = {
  [NOTE]: (e) => String(e.text),
  [N.connectionOpen]: (e) => `${e.transport} ${e.target}`,
  [N.connectionReady]: (r) => {
    const server = r.serverName === undefined ? '' : ` server ${r.serverName} ${r.serverVersion ?? ''}`;
    return `${r.protocolVersion}${server.trimEnd()} in ${ms(r.durationMs)}`;
  },
  [N.connectionError]: (r) => `${r.phase} after ${ms(r.durationMs)}: ${failure(r.error)}`,
  [N.connectionClose]: (r) => {
    const p = r.process;
    const proc =
      p === undefined
        ? ''
        : `, pid ${p.pid ?? '-'} ended ${p.ended} (code ${p.exitCode}, signal ${p.signal}), ${p.activeProcesses} left`;
    return `after ${ms(r.durationMs)}${proc}, ${r.lateResponsesDropped} late answers dropped`;
  },
  [N.requestStart]: (e) => request(e),
  [N.requestEnd]: (r) =>
    `${request(r)} ${ms(r.durationMs)}${r.isError ? ' (the tool reported isError)' : ''}`,
  [N.requestError]: (r) => `${request(r)} ${ms(r.durationMs)}: ${failure(r.error)}`,
  [N.stdioSpawn]: (e) => `pid ${e.pid} ${e.target}`,
  [N.stdioExit]: (r) => {
    const when = r.closing ? ' on close' : r.startup ? ' during startup' : '';
    return `pid ${r.pid} exited${when} (code ${r.exitCode}, signal ${r.signal}) after ${ms(r.durationMs)}`;
  },
  [N.httpRequest]: (e) => http(e),
  [N.httpResponse]: (r) => `${http(r)} -> ${r.status} ${ms(r.durationMs)}`,
  [N.httpError]: (r) =>
    `${http(r)} -> ${r.aborted ? 'aborted' : 'no response'}${r.errorCode === undefined ? '' : ` (${r.errorCode})`} ${ms(r.durationMs)}`,
};

function request(e: RequestStartEvent): string {
  const tool = typeof e.tool === 'string' ? ` ${e.tool}` : '';
  return `#${e.requestId} ${e.method}${tool}`;
}

function http(e: HttpRequestEvent): string {
  const rpc = typeof e.rpcMethod === 'string' ? ` ${e.rpcMethod}` : '';
  return `${e.method}${rpc} ${e.target}`;
}
