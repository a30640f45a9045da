/**
 * The sandbox side of the bridge, as JavaScript source evaluated in each fresh context before the code. It
 * receives the two host functions as arguments (they are never globals), captures the built-ins it needs
 * before the code can touch them, installs `mcp`, `servers` and `console` as frozen globals, and returns the
 * helpers the host calls later (the returned value to JSON, an uncaught error to plain data). Only strings
 * cross: arguments leave as JSON text made here, answers arrive as JSON text parsed here.
 */

/** The file name the prelude is evaluated under (its frames are never taken for the code's). */
export const PRELUDE_FILE = 'autos-mcp-prelude.js';

/** The file name the code is evaluated under: error lines are read from frames in it. */
export const CODE_FILE = 'code.js';

/**
 * A function expression of `(host, hostLog, limits)`: `host(op, json)` returns a promise of the answer's JSON
 * (rejected with an error's JSON), `hostLog(level, line)` returns true once the log budget is spent.
 * Returns `{ toJson, errorInfo }`.
 */
export const PRELUDE = String.raw`(function (host, hostLog, limits) {
  'use strict';
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ErrorC = Error;
  const StringC = String;
  const ProxyC = Proxy;
  const freeze = Object.freeze;
  const create = Object.create;
  const define = Object.defineProperty;
  const isArray = Array.isArray;
  const CODE_LINE = /${CODE_FILE.replace('.', '\\.')}:(\d+)/;
  const exec = RegExp.prototype.exec;
  const apply = Reflect.apply;

  function bridgeError(kind, message, extra) {
    const error = new ErrorC(message);
    error.name = 'McpError';
    error.kind = kind;
    error.delivery = extra && extra.delivery !== undefined ? extra.delivery : 'not_sent';
    if (extra && extra.ref !== undefined) error.ref = extra.ref;
    if (extra && extra.annotations !== undefined) error.annotations = extra.annotations;
    if (extra && extra.code !== undefined) error.code = extra.code;
    return error;
  }

  function refuse(key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint')
      throw bridgeError('not_plain', 'a ' + type + ' is not plain data (at key "' + StringC(key).slice(0, 100) + '"): only JSON values cross');
    return value;
  }

  function plain(value, what, max) {
    let text;
    try {
      text = stringify(value, refuse);
    } catch (error) {
      if (error && error.kind === 'not_plain') { error.message = what + ': ' + error.message; throw error; }
      throw bridgeError('not_plain', what + ' is not plain data: ' + (error && error.message));
    }
    if (text !== undefined && text.length > max)
      throw bridgeError('too_large', what + ' is ' + text.length + ' characters of JSON, over the limit of ' + max);
    return text;
  }

  // The run's request budget, counted here too: past it a request fails without crossing, so a flood of
  // calls costs the host nothing (the host counts again and refuses the same way).
  let requests = 0;
  // Each async function here awaits rather than returns a promise: returning one would call its
  // user-visible 'then', which the code may have replaced.
  async function request(op, payload, ref) {
    if (++requests > limits.maxCalls)
      throw bridgeError('call_limit', 'the run made ' + limits.maxCalls + ' bridge requests, its limit (maxCalls)', { ref });
    let answer;
    try {
      answer = await host(op, payload);
    } catch (raw) {
      const data = parse(raw);
      throw bridgeError(data.kind, data.message, data);
    }
    return parse(answer);
  }

  function checkRef(ref) {
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 512)
      throw bridgeError('invalid_arguments', 'a tool ref is a "server.tool" string, got ' + typeof ref);
  }

  const mcp = freeze({
    call: async function call(ref, args) {
      checkRef(ref);
      const given = args === undefined ? {} : args;
      if (given === null || typeof given !== 'object' || isArray(given))
        throw bridgeError('invalid_arguments', 'the arguments of ' + ref + ' must be an object', { ref });
      return await request('call', plain([ref, given], 'the arguments of ' + ref, limits.maxArgChars), ref);
    },
    search: async function search(query, options) {
      if (typeof query !== 'string') throw bridgeError('invalid_arguments', 'search takes a query string');
      return await request('search', plain([query, options === undefined ? {} : options], 'the search options', limits.maxArgChars));
    },
    describe: async function describe(ref) {
      checkRef(ref);
      return await request('describe', plain([ref], 'the ref', limits.maxArgChars), ref);
    },
  });

  function toolsOf(server) {
    return new ProxyC(freeze(create(null)), {
      get(_, tool) {
        if (typeof tool !== 'string' || tool === 'then') return undefined;
        return function (args) { return mcp.call(server + '.' + tool, args); };
      },
    });
  }
  const servers = new ProxyC(freeze(create(null)), {
    get(_, server) {
      if (typeof server !== 'string' || server === 'then') return undefined;
      return toolsOf(server);
    },
  });

  function shown(value) {
    if (typeof value === 'string') return value;
    try {
      if (value instanceof ErrorC) return StringC(value.name) + ': ' + StringC(value.message);
      const text = stringify(value);
      if (text !== undefined) return text;
    } catch (_) {}
    try { return StringC(value); } catch (_) { return '[unprintable]'; }
  }
  let full = false;
  function logAt(level) {
    return function () {
      if (full) return;
      let line = '';
      for (let i = 0; i < arguments.length && line.length <= limits.maxLogChars; i++)
        line += (i === 0 ? '' : ' ') + shown(arguments[i]);
      full = hostLog(level, line.length > limits.maxLogChars ? line.slice(0, limits.maxLogChars + 1) : line) === true;
    };
  }
  const consoleObject = freeze({ log: logAt('log'), info: logAt('info'), warn: logAt('warn'), error: logAt('error'), debug: logAt('log') });

  define(G, 'mcp', { value: mcp, enumerable: false, configurable: false, writable: false });
  define(G, 'servers', { value: servers, enumerable: false, configurable: false, writable: false });
  define(G, 'console', { value: consoleObject, enumerable: false, configurable: false, writable: false });

  function toJson(value) {
    return plain(value, 'the returned value', limits.maxValueChars);
  }

  function errorInfo(error) {
    const info = { name: 'Error', message: '' };
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const name = error.name;
        const message = error.message;
        info.name = typeof name === 'string' ? name : 'Error';
        info.message = typeof message === 'string' ? message : shown(message);
        const match = typeof error.stack === 'string' ? apply(exec, CODE_LINE, [error.stack]) : null;
        if (match) info.line = +match[1];
        if (typeof error.kind === 'string') info.kind = error.kind;
        if (typeof error.delivery === 'string') info.delivery = error.delivery;
        if (typeof error.ref === 'string') info.ref = error.ref;
      } else {
        info.name = 'thrown value';
        info.message = shown(error);
      }
    } catch (_) {
      info.message = '[an error that could not be read]';
    }
    info.name = info.name.slice(0, 200);
    info.message = info.message.slice(0, 2000);
    return stringify(info);
  }

  return { toJson, errorInfo };
})`;
