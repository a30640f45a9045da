/**
 * The human debug log: one line per diagnostics event (and per free-text note) on stderr, in the format
 * of `util.debuglog` (`AUTOS-MCP <pid>: …`). Loaded only when `AUTOS_MCP_DEBUG` or `NODE_DEBUG` asks for
 * it (publish.ts). Every line goes through the one terminal sanitizer: server names, tool names and
 * error messages are server-controlled text.
 */
import { terminalText } from '../internal/terminal-text.js';
import {
  type ConnectionCloseEvent,
  type ConnectionErrorEvent,
  type ConnectionReadyEvent,
  type DiagnosticsError,
  type HttpErrorEvent,
  type HttpResponseEvent,
  diagnosticsChannels as N,
  type RequestEndEvent,
  type RequestErrorEvent,
  type StdioExitEvent,
} from './channels.js';
import { NOTE } from './publish.js';

/** One line is cut to this many characters (an error message may quote a long server text). */
const MAX_LINE = 2000;

type Writer = (line: string) => void;

function stderrWriter(line: string): void {
  process.stderr.write(`AUTOS-MCP ${process.pid}: ${line}\n`);
}

/** A subscriber that writes one sanitized line per event with `write` (default: stderr). */
export function createDebugLog(
  write: Writer = stderrWriter,
): (message: unknown, name: string | symbol) => void {
  return (message, name) => {
    const text = describe(String(name), message as Record<string, unknown>);
    if (text !== undefined) write(terminalText(text, { oneLine: true, max: MAX_LINE }));
  };
}

function ms(value: unknown): string {
  return typeof value === 'number' ? `${value < 10 ? value.toFixed(1) : Math.round(value)}ms` : '?ms';
}

function failure(error: DiagnosticsError | undefined): string {
  if (error === undefined) return 'failed';
  return `${error.kind} (delivery ${error.delivery}): ${error.message}`;
}

/** The line for one event, without the prefix; undefined for a name this log does not know. */
export function describe(name: string, e: Record<string, unknown>): string | undefined {
  const id = typeof e['connectionId'] === 'string' ? `[${e['connectionId']}] ` : '';
  const short = name.startsWith('autos-mcp:') ? name.slice('autos-mcp:'.length) : name;
  const body = line(name, e);
  return body === undefined ? undefined : `${id}${short} ${body}`;
}

function line(name: string, e: Record<string, unknown>): string | undefined {
  switch (name) {
    case NOTE:
      return String(e['text']);
    case N.connectionOpen:
      return `${e['transport']} ${e['target']}`;
    case N.connectionReady: {
      const r = e as unknown as ConnectionReadyEvent;
      const server = r.serverName === undefined ? '' : ` server ${r.serverName} ${r.serverVersion ?? ''}`;
      return `${r.protocolVersion}${server.trimEnd()} in ${ms(r.durationMs)}`;
    }
    case N.connectionError: {
      const r = e as unknown as ConnectionErrorEvent;
      return `${r.phase} after ${ms(r.durationMs)}: ${failure(r.error)}`;
    }
    case N.connectionClose: {
      const r = e as unknown as ConnectionCloseEvent;
      const p = r.process;
      const proc =
        p === undefined
          ? ''
          : `, pid ${p.pid ?? '-'} ended ${p.ended} (code ${p.exitCode}, signal ${p.signal}), ${p.activeProcesses} left`;
      return `after ${ms(r.durationMs)}${proc}, ${r.lateResponsesDropped} late answers dropped`;
    }
    case N.requestStart:
      return request(e);
    case N.requestEnd: {
      const r = e as unknown as RequestEndEvent;
      return `${request(e)} ${ms(r.durationMs)}${r.isError ? ' (the tool reported isError)' : ''}`;
    }
    case N.requestError: {
      const r = e as unknown as RequestErrorEvent;
      return `${request(e)} ${ms(r.durationMs)}: ${failure(r.error)}`;
    }
    case N.stdioSpawn:
      return `pid ${e['pid']} ${e['target']}`;
    case N.stdioExit: {
      const r = e as unknown as StdioExitEvent;
      const when = r.closing ? ' on close' : r.startup ? ' during startup' : '';
      return `pid ${r.pid} exited${when} (code ${r.exitCode}, signal ${r.signal}) after ${ms(r.durationMs)}`;
    }
    case N.httpRequest:
      return http(e);
    case N.httpResponse: {
      const r = e as unknown as HttpResponseEvent;
      return `${http(e)} -> ${r.status} ${ms(r.durationMs)}`;
    }
    case N.httpError: {
      const r = e as unknown as HttpErrorEvent;
      return `${http(e)} -> ${r.aborted ? 'aborted' : 'no response'}${r.errorCode === undefined ? '' : ` (${r.errorCode})`} ${ms(r.durationMs)}`;
    }
    default:
      return undefined;
  }
}

function request(e: Record<string, unknown>): string {
  const tool = typeof e['tool'] === 'string' ? ` ${e['tool']}` : '';
  return `#${e['requestId']} ${e['method']}${tool}`;
}

function http(e: Record<string, unknown>): string {
  const rpc = typeof e['rpcMethod'] === 'string' ? ` ${e['rpcMethod']}` : '';
  return `${e['method']}${rpc} ${e['target']}`;
}
