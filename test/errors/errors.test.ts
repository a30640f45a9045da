/**
 * McpError as data: every kind survives toJSON → structured clone (MessageChannel, a worker thread) or
 * JSON → McpError.fromJSON with every field equal and the right class; malformed data becomes a
 * `protocol` error instead of a throw; cause summaries are redacted and bounded; the brand makes errors
 * of another copy of the library recognisable and look-alikes are not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { MessageChannel, Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import fc from 'fast-check';
import {
  type AnyMcpError,
  ERROR_KINDS,
  type ErrorKind,
  errorFromData,
  isErrorKind,
  isMcpError,
  McpError,
  type McpErrorData,
  type McpErrorOptions,
  RpcError,
  UnsupportedProtocolVersionError,
} from '../../src/errors/index.js';
import { must } from '../helpers/must.js';

const BRAND = Symbol.for('autos-mcp.McpError');
const SECRET = 'sk_live_Zq81mXc04PvT7wLr9bN2';

/** A cause chain 4 deep (one more than is kept), with a secret in the top message and a code. */
function causeChain(): Error {
  const root = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  const third = new Error('third', { cause: root });
  const second = new TypeError(`second: token=${SECRET}`, { cause: third });
  return Object.assign(new Error(`upstream failed: Authorization: Bearer ${SECRET}`, { cause: second }), {
    code: 'E_UPSTREAM',
  });
}

const CHALLENGE = {
  scheme: 'Bearer',
  resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
  scope: 'tools:read',
  error: 'invalid_token',
  errorDescription: `token=${SECRET} expired`,
};

/** The fields each kind carries when autos-mcp throws it (a Record, so a new kind fails to compile here). */
const OPTIONS: Record<ErrorKind, McpErrorOptions> = {
  config: {},
  spawn: { stderrTail: `boom\nAPI_KEY=${SECRET}\n` },
  transport: { delivery: 'unknown', status: 502, target: 'https://h/mcp', detail: 'bad gateway' },
  protocol: { delivery: 'delivered', code: -32700, data: { line: 3 }, stderrTail: 'garbage on stdout' },
  rpc: { delivery: 'delivered', code: -32602, data: { field: 'x', list: [1, null, 'two'] } },
  timeout: { delivery: 'unknown', stderrTail: 'still working…' },
  cancelled: { delivery: 'unknown' },
  closed: {
    delivery: 'unknown',
    stderrTail: 'exited with code 1',
    target: 'node srv.mjs',
    exit: { code: 1, signal: null },
  },
  too_large: { delivery: 'delivered', data: { limit: 1024 } },
  unsupported_version: { delivery: 'delivered', code: -32022, data: { supported: ['2025-11-25'] } },
  busy: {},
  auth_required: { delivery: 'delivered', status: 401, challenge: CHALLENGE },
  forbidden: { delivery: 'delivered', status: 403, challenge: { ...CHALLENGE, error: 'insufficient_scope' } },
  session_expired: { delivery: 'delivered', status: 404 },
  invalid_tool: { data: { tool: 'echo' } },
  tool_changed: { data: { tool: 'echo', changed: ['description'], missing: false } },
  invalid_arguments: { data: { tool: 'echo', path: '/text', keyword: 'type', expected: 'string' } },
  denied: { data: { tool: 'delete_file' } },
  missing_capability: {
    delivery: 'delivered',
    code: -32021,
    data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    target: 'node srv.mjs',
  },
  task_cancelled: { delivery: 'delivered', target: 'node srv.mjs' },
  skill_rejected: { delivery: 'delivered', data: { problem: 'digest', uri: 'skill://pdf/SKILL.md' } },
};

/** One McpError per kind with its fields and a cause, plus the two subclasses. */
function samples(): Array<[string, McpError]> {
  const out: Array<[string, McpError]> = ERROR_KINDS.map((kind) => [
    `McpError ${kind}`,
    new McpError(kind, `${kind} on srv: it failed (Bearer ${SECRET})`, {
      ...OPTIONS[kind],
      cause: causeChain(),
    }),
  ]);
  out.push(
    [
      'RpcError',
      new RpcError('tools/call', 'srv', -32602, `bad params, api_key=${SECRET}`, { detail: [1, 'x'] }),
    ],
    [
      'UnsupportedProtocolVersionError',
      new UnsupportedProtocolVersionError('srv', '2026-07-28', ['2025-06-18', '2025-11-25'], {
        code: -32022,
        data: { supported: ['2025-06-18', '2025-11-25'] },
        stderrTail: 'version mismatch',
        cause: causeChain(),
      }),
    ],
  );
  return out;
}

const FIELDS = [
  'name',
  'kind',
  'delivery',
  'message',
  'code',
  'data',
  'status',
  'challenge',
  'stderrTail',
  'target',
  'exit',
  'detail',
  'rpcMessage',
  'requested',
  'supported',
] as const;

/** Field-by-field comparison of a rebuilt error with the original (same thread, so same classes). */
function assertSameError(got: unknown, want: McpError, label: string): void {
  assert.ok(isMcpError(got), `${label}: want isMcpError(rebuilt) true, got ${String(got)}`);
  assert.equal(
    Object.getPrototypeOf(got),
    Object.getPrototypeOf(want),
    `${label}: want class ${want.constructor.name}, got ${(got as object).constructor.name}`,
  );
  for (const field of FIELDS) {
    const g: unknown = (got as unknown as Record<string, unknown>)[field];
    const w: unknown = (want as unknown as Record<string, unknown>)[field];
    assert.deepEqual(g, w, `${label}: field ${field}: want ${JSON.stringify(w)}, got ${JSON.stringify(g)}`);
  }
  const wantJson = want.toJSON();
  assert.deepEqual(got.cause, wantJson.cause, `${label}: want the cause summary as cause`);
  assert.deepEqual(got.toJSON(), wantJson, `${label}: want toJSON() equal`);
}

/** Posts `value` through a real MessageChannel (structured clone) and resolves with what arrives. */
function viaChannel(value: unknown): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve, reject) => {
    port2.once('message', (message: unknown) => {
      port1.close();
      resolve(message);
    });
    port2.once('messageerror', reject);
    port1.postMessage(value);
  });
}

/** Runs an inline worker that answers each message with `reply`, and resolves with the answers. */
function viaWorker(source: string, messages: unknown[], workerData?: unknown): Promise<unknown[]> {
  const worker = new Worker(source, { eval: true, workerData });
  return new Promise<unknown[]>((resolve, reject) => {
    const answers: unknown[] = [];
    worker.on('message', (message: unknown) => {
      answers.push(message);
      if (answers.length === messages.length) void worker.terminate().then(() => resolve(answers));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answers.length < messages.length) reject(new Error(`worker exited with ${code} early`));
    });
    for (const message of messages) worker.postMessage(message);
  });
}

describe('ERROR_KINDS', () => {
  it('is frozen, has no duplicates and lists exactly the kinds of the ErrorKind type', () => {
    assert.ok(Object.isFrozen(ERROR_KINDS));
    assert.equal(new Set(ERROR_KINDS).size, ERROR_KINDS.length);
    // OPTIONS is a Record<ErrorKind, …>: it has every kind of the type and no other.
    assert.deepEqual([...ERROR_KINDS].sort(), Object.keys(OPTIONS).sort());
  });
});

describe('toJSON', () => {
  it('keeps every field, the subclass fields and a redacted cause summary 3 deep, never the cause', () => {
    const [, timeout] = must(
      samples().find(([label]) => label === 'McpError timeout'),
      'the McpError timeout sample',
    );
    const json = timeout.toJSON();
    assert.deepEqual(Object.keys(json), ['name', 'kind', 'delivery', 'message', 'stderrTail', 'cause']);
    assert.notEqual(json.cause, timeout.cause);
    assert.equal(Object.getPrototypeOf(json.cause), Object.prototype);
    assert.deepEqual(json.cause, {
      name: 'Error',
      message: 'upstream failed: Authorization: [redacted]',
      code: 'E_UPSTREAM',
      cause: {
        name: 'TypeError',
        message: 'second: token=[redacted]',
        cause: { name: 'Error', message: 'third' },
      },
    });
    const auth = must(
      samples().find(([label]) => label === 'McpError auth_required'),
      'the auth_required sample',
    )[1].toJSON();
    assert.equal(auth.status, 401);
    assert.deepEqual(auth.challenge, { ...CHALLENGE, errorDescription: 'token=[redacted] expired' });
    const rpc = must(
      samples().find(([label]) => label === 'RpcError'),
      'the RpcError sample',
    )[1].toJSON();
    assert.equal(rpc.kind === 'rpc' && rpc.rpcMessage, 'bad params, api_key=[redacted]');
    const version = must(
      samples().find(([label]) => label === 'UnsupportedProtocolVersionError'),
      'the UnsupportedProtocolVersionError sample',
    )[1].toJSON();
    assert.ok(version.kind === 'unsupported_version');
    assert.equal(version.requested, '2026-07-28');
    assert.deepEqual(version.supported, ['2025-06-18', '2025-11-25']);
  });

  it('puts no secret anywhere: message, stderrTail, challenge, rpcMessage and the whole cause chain', () => {
    for (const [label, error] of samples()) {
      const text = JSON.stringify(error.toJSON());
      assert.ok(!text.includes(SECRET), `${label}: want the secret redacted, got ${text}`);
    }
    const json = must(samples()[0], 'a sample')[1].toJSON();
    assert.match(JSON.stringify(json.cause), /Bearer|\[redacted\]/);
    assert.ok(!JSON.stringify(json.cause).includes(SECRET));
  });

  it('summarises causes that are cyclic, primitives, plain objects or have throwing getters', () => {
    const cyclic = new Error('loop');
    (cyclic as { cause?: unknown }).cause = cyclic;
    const summary = new McpError('transport', 'x', { cause: cyclic }).toJSON().cause;
    assert.deepEqual(summary, {
      name: 'Error',
      message: 'loop',
      cause: { name: 'Error', message: 'loop', cause: { name: 'Error', message: 'loop' } },
    });
    assert.deepEqual(new McpError('transport', 'x', { cause: `Bearer ${SECRET}` }).toJSON().cause, {
      name: 'string',
      message: 'Bearer [redacted]',
    });
    assert.deepEqual(new McpError('transport', 'x', { cause: { code: 7 } }).toJSON().cause, {
      name: 'Object',
      message: '',
      code: 7,
    });
    const hostile = {
      get message(): string {
        throw new Error('no');
      },
    };
    assert.deepEqual(new McpError('transport', 'x', { cause: hostile }).toJSON().cause, {
      name: 'Error',
      message: '[the cause could not be read]',
    });
  });

  it('bounds a long cause message, and the bounded summary is stable when summarised again', () => {
    const long = `${'word '.repeat(195)}token=${SECRET} ${'x'.repeat(4000)}`;
    const error = new McpError('transport', 'x', { cause: new Error(long) });
    const summary = must(error.toJSON().cause, 'the cause summary');
    assert.ok(summary.message.length <= 1000, `want ≤ 1000 characters, got ${summary.message.length}`);
    assert.ok(summary.message.endsWith('…'));
    assert.ok(!summary.message.includes(SECRET));
    assert.deepEqual(errorFromData(error.toJSON()).toJSON().cause, summary);
  });
});

describe('round trip', () => {
  for (const [label, error] of samples()) {
    it(`${label}: toJSON through a MessageChannel, then fromJSON, gives an equal error`, async () => {
      const arrived = await viaChannel(error.toJSON());
      assertSameError(McpError.fromJSON(arrived), error, label);
    });

    it(`${label}: JSON.stringify / JSON.parse, then fromJSON, gives an equal error`, () => {
      const parsed: unknown = JSON.parse(JSON.stringify(error));
      assertSameError(errorFromData(parsed), error, label);
    });

    it(`${label}: fromJSON of the error object itself gives an equal error`, () => {
      assertSameError(McpError.fromJSON(error), error, label);
    });
  }

  it('posting the raw error object loses kind and the other fields (V8 clones only message, stack and cause): fromJSON says malformed and keeps the message in its cause', async () => {
    for (const [label, error] of samples()) {
      const arrived = await viaChannel(error);
      assert.ok(arrived instanceof Error, `${label}: want a plain Error, got ${String(arrived)}`);
      assert.equal(arrived.message, error.message);
      assert.equal((arrived as { kind?: unknown }).kind, undefined, `${label}: structured clone kept kind`);
      assert.equal(isMcpError(arrived), false);
      const rebuilt = McpError.fromJSON(arrived);
      assert.equal(rebuilt.kind, 'protocol');
      assert.equal(rebuilt.delivery, 'unknown');
      assert.match(rebuilt.message, /the error data is malformed: kind is missing/);
      assert.equal(rebuilt.toJSON().cause?.message, error.message);
    }
  });

  it('every kind survives a worker thread that echoes the data back', { timeout: 30_000 }, async () => {
    const all = samples();
    const echo = `
      const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (data) => parentPort.postMessage(structuredClone(data)));`;
    const answers = await viaWorker(
      echo,
      all.map(([, error]) => error.toJSON()),
    );
    all.forEach(([label, error], i) => {
      assertSameError(McpError.fromJSON(answers[i]), error, `${label} via a worker`);
    });
  });

  it('in another thread the data rebuilds into an McpError of the right class there', {
    timeout: 60_000,
  }, async () => {
    const all = samples();
    // The worker cannot load TypeScript by itself: it loads src/errors through tsx's API.
    const rebuildThere = `
      const { parentPort, workerData } = require('node:worker_threads');
      const errors = import(workerData.tsx).then((api) => api.tsImport(workerData.errors, workerData.parent));
      parentPort.on('message', async (data) => {
        const m = await errors;
        const e = m.McpError.fromJSON(data);
        parentPort.postMessage({
          isMcpError: m.isMcpError(e),
          isRpcError: m.isErrorKind(e, 'rpc'),
          className: e.constructor.name,
          instanceOfClass: e instanceof m[data.name === 'McpError' ? 'McpError' : data.name],
          json: e.toJSON(),
        });
      });`;
    const answers = (await viaWorker(
      rebuildThere,
      all.map(([, error]) => error.toJSON()),
      {
        tsx: import.meta.resolve('tsx/esm/api'),
        errors: new URL('../../src/errors/index.ts', import.meta.url).href,
        parent: import.meta.url,
      },
    )) as Array<{
      isMcpError: boolean;
      isRpcError: boolean;
      className: string;
      instanceOfClass: boolean;
      json: McpErrorData;
    }>;
    all.forEach(([label, error], i) => {
      const got = must(answers[i], `${label}: the worker's answer`);
      assert.equal(got.isMcpError, true, `${label}: isMcpError in the worker`);
      assert.equal(got.isRpcError, error.kind === 'rpc', `${label}: isRpcError in the worker`);
      assert.equal(got.className, error.constructor.name, `${label}: class in the worker`);
      assert.equal(got.instanceOfClass, true, `${label}: instanceof in the worker`);
      assert.deepEqual(got.json, error.toJSON(), `${label}: toJSON of the worker's rebuilt error`);
    });
  });
});

describe('redaction on the way back in', () => {
  it('does not change an already redacted message, stderrTail, challenge or rpcMessage', () => {
    // One pass of redact() is not idempotent on this input; the error must still round-trip unchanged.
    const tricky = 'https://https://a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6@host';
    const errors = [
      new McpError('auth_required', tricky, {
        status: 401,
        stderrTail: tricky,
        challenge: { scheme: 'Bearer', error: tricky, errorDescription: tricky },
      }),
      new RpcError('tools/call', 'srv', -1, tricky, undefined),
    ];
    for (const error of errors) assertSameError(errorFromData(error.toJSON()), error, error.name);
  });

  it('is idempotent for arbitrary text with credentials in it', () => {
    const unit = fc.constantFrom(
      ' ',
      '\n',
      ':',
      '=',
      '"',
      "'",
      '/',
      '@',
      '&',
      'a',
      '9',
      'Bearer ',
      'token',
      'code=',
      'Authorization: ',
      'https://',
      '[redacted]',
      'eyJhbGciOi.eyJzdWIi.c2ln',
      'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6',
      '…',
    );
    const text = fc.oneof(fc.string({ unit, maxLength: 30 }), fc.string({ maxLength: 80 }));
    fc.assert(
      fc.property(text, (t) => {
        const error = new McpError('closed', t, { stderrTail: t, cause: new Error(t.repeat(40)) });
        assertSameError(errorFromData(error.toJSON()), error, JSON.stringify(t));
      }),
      { numRuns: 300 },
    );
  });

  it('redacts secrets in data that did not come from an McpError', () => {
    const rebuilt = errorFromData({
      kind: 'config',
      delivery: 'not_sent',
      message: `bad Bearer ${SECRET}`,
      stderrTail: `password=${SECRET}`,
      cause: { name: 'Error', message: `token=${SECRET}` },
    });
    assert.equal(rebuilt.kind, 'config');
    assert.ok(!JSON.stringify(rebuilt.toJSON()).includes(SECRET), JSON.stringify(rebuilt.toJSON()));
    assert.ok(!rebuilt.message.includes(SECRET));
  });
});

describe('malformed data', () => {
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  );
  const base = { name: 'McpError', kind: 'config', delivery: 'not_sent', message: 'm' };
  const cases: Array<[string, unknown, RegExp]> = [
    ['null', null, /expected an object, got null/],
    ['undefined', undefined, /expected an object, got missing/],
    ['a number', 42, /expected an object, got number/],
    ['a string', 'rpc', /expected an object, got "rpc"/],
    ['an array', [], /expected an object, got an array/],
    ['an empty object', {}, /kind is missing/],
    ['an unknown kind', { ...base, kind: 'nope' }, /kind "nope" is not an ErrorKind/],
    ['a kind that is not a string', { ...base, kind: 4 }, /kind number is not an ErrorKind/],
    ['no delivery', { ...base, delivery: undefined }, /delivery missing is not a Delivery/],
    ['an unknown delivery', { ...base, delivery: 'sent' }, /delivery "sent" is not a Delivery/],
    ['a message that is not a string', { ...base, message: 5 }, /message is number/],
    ['a name that is not an identifier', { ...base, name: 'a b' }, /name "a b" is not an identifier/],
    ['rpc without code', { ...base, kind: 'rpc' }, /kind rpc has no code/],
    ['a code that is a string', { ...base, code: '1' }, /code is "1", not a number/],
    ['a fractional status', { ...base, status: 401.5 }, /status is number, not an integer/],
    ['a stderrTail that is an object', { ...base, stderrTail: {} }, /stderrTail is an object/],
    ['a target that is a number', { ...base, target: 7 }, /target is number, not a string/],
    ['a detail that is an object', { ...base, detail: {} }, /detail is an object, not a string/],
    [
      'an exit with a string code',
      { ...base, exit: { code: '1', signal: null } },
      /exit is not a ProcessExit/,
    ],
    ['an exit without signal', { ...base, exit: { code: 1 } }, /exit is not a ProcessExit/],
    [
      'a challenge without scheme',
      { ...base, challenge: { scope: 'x' } },
      /challenge is not an AuthChallenge/,
    ],
    ['a challenge field that is a number', { ...base, challenge: { scheme: 'B', scope: 1 } }, /challenge/],
    [
      'an RpcError of another kind',
      { ...base, name: 'RpcError', code: 1, rpcMessage: 'x' },
      /kind config, not rpc/,
    ],
    [
      'an RpcError without rpcMessage',
      { ...base, name: 'RpcError', kind: 'rpc', code: 1 },
      /rpcMessage is missing/,
    ],
    [
      'an UnsupportedProtocolVersionError with numbers in supported',
      {
        ...base,
        name: 'UnsupportedProtocolVersionError',
        kind: 'unsupported_version',
        requested: 'v',
        supported: [1],
      },
      /supported is not an array of strings/,
    ],
    [
      'an UnsupportedProtocolVersionError without requested',
      { ...base, name: 'UnsupportedProtocolVersionError', kind: 'unsupported_version', supported: [] },
      /requested is missing/,
    ],
    ['a Proxy whose every read throws', throwing, /its fields could not be read/],
  ];
  for (const [what, value, reason] of cases) {
    it(`${what} → an McpError of kind protocol, no throw`, () => {
      let rebuilt: AnyMcpError | undefined;
      assert.doesNotThrow(() => {
        rebuilt = McpError.fromJSON(value);
      });
      assert.ok(isMcpError(rebuilt));
      assert.equal(rebuilt.kind, 'protocol');
      assert.equal(rebuilt.delivery, 'unknown');
      assert.match(rebuilt.message, /the error data is malformed/);
      assert.match(rebuilt.message, reason);
    });
  }
});

describe('brand and guards', () => {
  it('the brand is a non-enumerable prototype property that every rebuilt error has and no JSON shows', () => {
    const descriptor = Object.getOwnPropertyDescriptor(McpError.prototype, BRAND);
    assert.deepEqual(descriptor, { value: true, writable: false, enumerable: false, configurable: false });
    const [, error] = must(samples()[0], 'a sample');
    assert.equal(Object.getOwnPropertySymbols(error).length, 0);
    assert.equal((McpError.fromJSON(error.toJSON()) as unknown as Record<symbol, unknown>)[BRAND], true);
    assert.ok(!Object.getOwnPropertySymbols(error.toJSON()).includes(BRAND));
  });

  it('an error of another copy of the library is recognised both ways, and rebuilt as this copy', async () => {
    // A second, separately bundled copy of src/errors, as an application with two copies of autos-mcp has.
    const bundled = await build({
      entryPoints: [fileURLToPath(new URL('../../src/errors/index.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
    });
    const code = Buffer.from(must(bundled.outputFiles[0], 'the bundled copy').text).toString('base64');
    const copy = (await import(
      `data:text/javascript;base64,${code}`
    )) as typeof import('../../src/errors/index.js');
    assert.notEqual(copy.McpError, McpError, 'want a second module instance');
    const theirs = new copy.RpcError('tools/call', 'srv', -32601, 'no such method', null);
    assert.equal(theirs instanceof McpError, false, 'want a class of the other copy');
    assert.ok(isMcpError(theirs));
    assert.ok(isErrorKind(theirs, 'rpc'));
    assert.ok(copy.isMcpError(new McpError('busy', 'x')));
    const ours = McpError.fromJSON(theirs);
    assert.ok(ours instanceof RpcError);
    assert.deepEqual(ours.toJSON(), theirs.toJSON());
  });

  it('an Error of another realm with the shape (toJSON, kind, delivery) is recognised; without it, not', () => {
    const shaped = vm.runInNewContext(
      `const e = new Error('x'); e.kind = 'timeout'; e.delivery = 'unknown'; e.toJSON = () => ({}); e`,
    ) as unknown;
    assert.ok(!(shaped instanceof Error), 'want an Error of another realm');
    assert.ok(isMcpError(shaped));
    const bare = vm.runInNewContext(
      `const e = new Error('x'); e.kind = 'timeout'; e.delivery = 'unknown'; e`,
    );
    assert.equal(isMcpError(bare), false);
  });

  it('look-alikes without the shape are not McpErrors', () => {
    const data = new McpError('config', 'x').toJSON();
    const lookalikes: Array<[string, unknown]> = [
      ['null', null],
      ['a string', 'McpError'],
      ['toJSON data (plain data, not an error)', data],
      ['a structured clone of toJSON data', structuredClone(data)],
      [
        'an Error with kind and delivery but no brand or toJSON',
        Object.assign(new Error('x'), { kind: 'config', delivery: 'not_sent' }),
      ],
      [
        'a branded Error with an unknown kind',
        Object.assign(new Error('x'), { [BRAND]: true, kind: 'nope', delivery: 'not_sent' }),
      ],
      [
        'a branded Error with an unknown delivery',
        Object.assign(new Error('x'), { [BRAND]: true, kind: 'config', delivery: 'sent' }),
      ],
      [
        'a shaped Error without delivery',
        Object.assign(new Error('x'), { kind: 'config', toJSON: () => ({}) }),
      ],
      [
        'a Proxy whose reads throw',
        new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
          },
        ),
      ],
    ];
    for (const [what, value] of lookalikes) {
      assert.equal(isMcpError(value), false, `${what}: want isMcpError false`);
      assert.equal(isErrorKind(value, 'config'), false, `${what}: want isErrorKind false`);
    }
    const branded = Object.assign(new Error('x'), { [BRAND]: true, kind: 'config', delivery: 'not_sent' });
    assert.equal(isMcpError(branded), true, 'a branded Error with a known kind and delivery is one');
  });

  it('narrows by kind without casts (also checked by tsc)', () => {
    const rebuilt = McpError.fromJSON(new RpcError('tools/call', 'srv', -32602, 'bad', null).toJSON());
    if (rebuilt.kind !== 'rpc') assert.fail(`want kind rpc, got ${rebuilt.kind}`);
    const code: number = rebuilt.code;
    assert.equal(code, -32602);
    const value: unknown = rebuilt;
    if (!isErrorKind(value, 'rpc')) assert.fail('want isErrorKind rpc');
    const narrowed: number = value.code;
    assert.equal(narrowed, -32602);
    assert.equal(isErrorKind(value, 'timeout'), false);
    const data: McpErrorData = rebuilt.toJSON();
    if (data.kind !== 'rpc') assert.fail('want rpc data');
    const dataCode: number = data.code;
    assert.equal(dataCode, -32602);
    const other = McpError.fromJSON(new McpError('config', 'x').toJSON());
    if (other.kind === 'config') {
      // @ts-expect-error code is optional outside kind rpc
      const notNumber: number = other.code;
      assert.equal(notNumber, undefined);
    }
  });
});

describe('existing behaviour', () => {
  it('redacts messages, stderrTail and challenge fields; delivery defaults to not_sent', () => {
    const error = new McpError('auth_required', `x Bearer ${SECRET}`, {
      status: 401,
      stderrTail: `token=${SECRET}`,
      challenge: { scheme: 'Bearer', error: `e Bearer ${SECRET}`, errorDescription: `d token=${SECRET}` },
    });
    assert.equal(error.delivery, 'not_sent');
    assert.equal(error.message, 'x Bearer [redacted]');
    assert.equal(error.stderrTail, 'token=[redacted]');
    assert.ok(!JSON.stringify(error.challenge).includes(SECRET));
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'McpError');
  });

  it('RpcError and UnsupportedProtocolVersionError keep their constructors, kinds and deliveries', () => {
    const rpc = new RpcError('tools/call', 'srv', -32601, 'Method not found', { m: 1 });
    assert.equal(rpc.kind, 'rpc');
    assert.equal(rpc.delivery, 'delivered');
    assert.equal(rpc.message, 'tools/call on srv: server returned JSON-RPC error -32601: Method not found');
    assert.ok(isErrorKind(rpc, 'rpc'));
    assert.equal(rpc.target, 'srv', 'the target is a field, not only words');
    const version = new UnsupportedProtocolVersionError('srv', '2026-07-28', [], { delivery: 'unknown' });
    assert.equal(version.kind, 'unsupported_version');
    assert.equal(version.delivery, 'unknown');
    assert.equal(version.message, 'srv does not support protocol version 2026-07-28; it offers none');
    assert.equal(isErrorKind(version, 'rpc'), false);
    assert.equal(version.target, 'srv');
  });
});
