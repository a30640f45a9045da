/**
 * Terminal safety on every channel. The sanitizer (`src/cli/terminal-text.ts`) under property tests: no
 * ESC, C1, bidi control or carriage return survives, an escape sequence's payload never shows, the output
 * is bounded and a fixed point, and the time is linear. Then the built CLI, run as a user runs it, against
 * one fixture server per channel (test/cli/fixtures/terminal/): tool names and descriptions, result text,
 * a JSON-RPC error message, progress messages, a stderr tail, serverInfo and instructions, an HTTP error.
 * Last, the progress bar in a pseudo-terminal (util-linux `script`) at 40 columns, resized to 30.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it, type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { OutputSink } from '../../src/cli/io.js';
import { progressBar, progressLine } from '../../src/cli/progress.js';
import { columnsWidth, fitColumns, terminalText } from '../../src/internal/terminal-text.js';
import { builtBin } from '../helpers/built-package.js';
import { must } from '../helpers/must.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary built from the current sources, once per test run (test/helpers/built-package.ts). */
const BIN = await builtBin();
const FIXTURES = 'test/cli/fixtures/terminal';

const fuzzRuns = Number(process.env['AUTOS_MCP_FUZZ_RUNS']);
const RUNS = Number.isSafeInteger(fuzzRuns) && fuzzRuns > 0 ? fuzzRuns : 500;
const envSeed = Number(process.env['AUTOS_MCP_FUZZ_SEED']);
const SEED = Number.isSafeInteger(envSeed) ? envSeed : 20260728;

function check<T>(t: TestContext, property: fc.IRawProperty<T>): void {
  t.diagnostic(`seed ${SEED}, ${RUNS} runs`);
  fc.assert(property, { seed: SEED, numRuns: RUNS });
}

const ESC = /\x1b/;
const C1 = /[\u0080-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const C0 = /[\x00-\x08\x0b-\x1f\x7f]/; // CR (0x0d) included
/** Payload text of the fixtures' sequences: none of it may be shown. */
const PAYLOADS = [
  ']8;;http://evil/',
  'http://evil',
  'pwned title',
  'dcs payload',
  'apc payload',
  'pm payload',
];
const MORE_PAYLOADS = ['sos payload', 'c1 osc payload', '[2J', '31m', '38;2;255'];

/** The strings of terminal control: pieces of every sequence, controls, bidi, surrogates, plain text. */
const piece = fc.constantFrom(
  '\x1b',
  '[',
  ']',
  '\\',
  'P',
  'X',
  '^',
  '_',
  '(',
  '#',
  '8;;',
  '0;',
  '31m',
  '?25l',
  ' ',
  '\x07',
  '\x18',
  '\x1a',
  '\r',
  '\n',
  '\t',
  '\x00',
  '\x7f',
  '\u0085',
  '\u008d',
  '\u0090',
  '\u0098',
  '\u009b',
  '\u009c',
  '\u009d',
  '\u009e',
  '\u009f',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ud800',
  '\udc00',
  '😀',
  '漢',
  'é',
  'a',
  'text ',
);
const hostileText = fc.oneof(
  fc.array(piece, { maxLength: 60 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ maxLength: 80 }),
);

/** Violations of the rules in a sanitized text, or undefined. */
function violation(out: string): string | undefined {
  if (ESC.test(out)) return 'ESC';
  if (C1.test(out)) return 'C1 control';
  if (BIDI.test(out)) return 'bidi control';
  if (C0.test(out)) return 'C0 control, CR or DEL';
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out))
    return 'lone surrogate';
  return undefined;
}

describe('terminalText, the one sanitizer', () => {
  it('leaves no ESC, C1, bidi control, C0 control or CR, and is a fixed point', (t) => {
    check(
      t,
      fc.property(hostileText, fc.boolean(), (text, oneLine) => {
        const out = terminalText(text, { oneLine });
        assert.equal(violation(out), undefined, JSON.stringify(out));
        if (oneLine) assert.doesNotMatch(out, /[\n\t]/);
        assert.equal(terminalText(out, { oneLine }), out);
      }),
    );
  });

  it('is bounded: at most max code units, a visible marker when cut, still a fixed point', (t) => {
    check(
      t,
      fc.property(hostileText, fc.integer({ min: 64, max: 200 }), (body, max) => {
        const text = `${body}\x18\n${'x'.repeat(max + 1)}`; // CAN ends any sequence body left open
        const out = terminalText(text, { max });
        assert.ok(out.length <= max, `${out.length} > ${max}`);
        assert.match(out, /… \[cut: \d+ more characters\]$/);
        assert.equal(violation(out), undefined);
        assert.equal(terminalText(out, { max }), out);
      }),
    );
  });

  it('removes a whole OSC, DCS, APC, PM, SOS or CSI, payload included, in 7-bit and 8-bit forms', (t) => {
    const payload = fc.string({
      unit: fc.constantFrom('a', '8', ';', ':', '/', '.', ' ', 'é', '?', '\n'),
      maxLength: 40,
    });
    const params = fc.string({
      unit: fc.constantFrom('0', '1', '9', ';', ':', '?', '<', ' ', '!', '$'),
      maxLength: 12,
    });
    const final = fc.constantFrom('m', 'H', 'J', 'K', '@', '~', 'q', 't');
    const open = fc.constantFrom(
      '\x1b]',
      '\u009d',
      '\x1bP',
      '\u0090',
      '\x1b_',
      '\u009f',
      '\x1b^',
      '\u009e',
      '\x1bX',
      '\u0098',
    );
    const close = fc.constantFrom('\x1b\\', '\u009c');
    check(
      t,
      fc.property(payload, params, final, open, close, (p, pa, f, o, c) => {
        assert.equal(terminalText(`<${o}${p}${c}>`), '<>');
        assert.equal(terminalText(`<\x1b]${p}\x07>`), '<>');
        assert.equal(terminalText(`<\x1b[${pa}${f}>`), '<>');
        assert.equal(terminalText(`<\u009b${pa}${f}>`), '<>');
      }),
    );
  });

  it('CRLF becomes LF, a lone CR goes, newline and tab stay; oneLine makes them spaces', () => {
    assert.equal(terminalText('a\r\nb\rc\r'), 'a\nbc');
    assert.equal(terminalText('a\r\r\nb'), 'a\nb');
    assert.equal(terminalText('a\tb\nc'), 'a\tb\nc');
    assert.equal(terminalText('a\tb\r\nc', { oneLine: true }), 'a b c');
    assert.equal(terminalText('\x1b]8;;http://evil/\x07click\x1b]8;;\x07'), 'click');
    assert.equal(terminalText('unterminated \x1b]0;title and the rest'), 'unterminated ');
    assert.equal(terminalText('a\x1b(Bb\x1b7c\x1b#8d\x1b'), 'abcd');
    assert.equal(terminalText('\u202eevil\u202c \u2067x\u2069 \u200fm\u061c'), 'evil x m');
    assert.equal(terminalText('\ud800x😀'), '\ufffdx😀');
  });

  it('takes linear time on pathological input', () => {
    for (const unit of ['\x1b[', '\x1b]', '\x1b\x1b]\x1b\\', '\u009b1;', 'a\r', '\u202e', 'x']) {
      const text = unit.repeat(Math.ceil(2_000_000 / unit.length));
      const started = performance.now();
      const out = terminalText(text);
      const ms = performance.now() - started;
      assert.ok(ms < 2000, `${JSON.stringify(unit)}: ${ms} ms`);
      assert.ok(out.length <= 1_000_000);
    }
  });
});

describe('the progress line', () => {
  it('fits the columns, wide characters counted as two', () => {
    for (const columns of [10, 20, 40, 80]) {
      for (const message of ['x'.repeat(300), '漢字'.repeat(50), '😀'.repeat(60), hostile()]) {
        const line = progressLine({ progress: 3, total: 10, message }, columns);
        assert.ok(columnsWidth(line) <= columns - 1, `${columns}: ${line}`);
        assert.equal(violation(line), undefined);
      }
    }
    assert.equal(fitColumns('漢字漢字', 5), '漢字…');
  });

  it('off a terminal: nothing while it runs, one plain line at the end', () => {
    const writes: string[] = [];
    const bar = progressBar({ write: (s) => writes.push(s), isTTY: false });
    bar.update({ progress: 1, total: 2, message: 'a\x1b[2J' });
    bar.update({ progress: 2, total: 2, message: 'b\u202e' });
    assert.deepEqual(writes, []);
    bar.done();
    assert.deepEqual(writes, ['progress [########################] 2/2 b\n']);
  });

  it('on a terminal: redrawn at the new width on resize, the listener removed at the end', () => {
    const writes: string[] = [];
    const listeners = new Set<() => void>();
    const sink: OutputSink = {
      write: (s) => writes.push(s),
      isTTY: true,
      columns: 40,
      on: (_event, listener) => listeners.add(listener),
      off: (_event, listener) => listeners.delete(listener),
    };
    const bar = progressBar(sink);
    bar.update({ progress: 1, total: 4, message: 'm'.repeat(100) });
    sink.columns = 20;
    for (const listener of listeners) listener();
    bar.done();
    assert.equal(listeners.size, 0);
    const drawn = writes.map((w) => w.replace('\r\x1b[2K', ''));
    assert.equal(columnsWidth(must(drawn[0], 'a first draw')), 39);
    assert.equal(columnsWidth(must(drawn[1], 'a redraw')), 19);
    assert.equal(drawn.at(-1), '');
  });
});

function hostile(): string {
  return '\x1b[2J\x1b]8;;http://evil/\x07click\u009b1m\u202eevil\rHIDDEN';
}

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `cli` without blocking the event loop: for a server that runs in this process. */
function cliAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Everything the CLI printed is free of terminal control, and no payload of a sequence shows. */
function assertSafe(output: string, visible: RegExp): void {
  assert.equal(violation(output), undefined, JSON.stringify(output));
  for (const payload of [...PAYLOADS, ...MORE_PAYLOADS])
    assert.ok(!output.includes(payload), `${payload} shown`);
  assert.match(output, visible);
  assert.match(output, /click/); // the text of the link stays
  assert.match(output, /visibleHIDDEN/); // both sides of a lone CR show
}

describe('every channel of the CLI, against hostile servers', () => {
  const server = (name: string, ...args: string[]) => [
    '--',
    process.execPath,
    `${FIXTURES}/${name}.mjs`,
    ...args,
  ];

  test('tools: tool names, parameter names, descriptions', () => {
    const run = cli(['tools', ...server('tools')]);
    assert.equal(run.code, 0, run.stderr);
    assertSafe(run.stdout + run.stderr, /^eviltool\(arg\)$/m);
  });

  test('call: result text and an embedded resource', () => {
    const run = cli(['call', 'echo', '{"text":"x"}', ...server('call')]);
    assert.equal(run.code, 0, run.stderr);
    assertSafe(run.stdout + run.stderr, /^result: cleared red click/m);
  });

  test('a JSON-RPC error message', () => {
    const run = cli(['call', 'echo', '{"text":"x"}', ...server('rpc-error')]);
    assert.equal(run.code, 3);
    assertSafe(run.stdout + run.stderr, /error \[rpc\].*error message: cleared/);
  });

  test('progress messages; with stderr not a terminal, no bar, one plain final line', () => {
    const run = cli(['call', 'echo', '{"text":"x"}', ...server('progress', '4')]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'done after 4 steps\n');
    assertSafe(run.stdout + run.stderr, /step 4: cleared/);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('progress '));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(must(lines[0], 'a progress line'), /^progress \[#+\] 4\/4 step 4/);
  });

  test('the stderr tail of a server that crashes', () => {
    const run = cli(['call', 'echo', '{"text":"x"}', ...server('stderr-crash')]);
    assert.equal(run.code, 3);
    assertSafe(run.stdout + run.stderr, /server stderr[^\n]*\n[^\n]*stderr line 1: cleared/);
  });

  test('discover: serverInfo, capabilities, instructions', () => {
    const run = cli(['discover', ...server('discover')]);
    assert.equal(run.code, 0, run.stderr);
    assertSafe(run.stdout + run.stderr, /^ {4}instructions: cleared/m);
    assert.match(run.stdout, /^server: srv/m);
  });

  describe('an HTTP server', () => {
    let http: Server;
    let url = '';
    before(async () => {
      http = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`internal error ${hostileLong()}`);
        });
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    });
    after(() => new Promise<void>((resolve) => http.close(() => resolve())));

    test('its error text', async () => {
      const run = await cliAsync(['tools', url]);
      assert.equal(run.code, 3);
      assert.equal(violation(run.stdout + run.stderr), undefined, run.stderr);
      assert.match(run.stderr, /HTTP 500: internal error click/);
      for (const payload of PAYLOADS)
        assert.ok(
          !run.stderr.includes(payload),
          `${payload} shown: the HTTP error text needs the one sanitizer`,
        );
    });
  });
});

function hostileLong(): string {
  return '\x1b[2J\x1b]8;;http://evil/\x07click\x1b]8;;\x07 \u009d0;pwned title\u009c \u202eevil\rHIDDEN';
}

/** A shell word. */
function sh(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const hasScript =
  process.platform === 'linux' && spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('the progress bar in a pseudo-terminal', {
  skip: hasScript ? false : 'needs util-linux script',
}, () => {
  test('drawn at 40 columns, redrawn at 30 on resize, never wider, no hostile control', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'autos-mcp-pty-'));
    const mark = path.join(dir, 'resize');
    try {
      const command = [process.execPath, BIN, 'call', 'echo', '{"text":"x"}', '--', process.execPath];
      command.push(`${FIXTURES}/progress.mjs`, '6', '30', '--resize-at', '3', mark);
      // The shell owns the terminal: it resizes it when the fixture asks (by creating `mark`), then says so.
      const shell =
        `stty cols 40; (while [ ! -e ${sh(mark)} ]; do sleep 0.02; done; stty cols 30 </dev/tty; rm -f ${sh(mark)}) & ` +
        command.map(sh).join(' ');
      const run = spawnSync('script', ['-qfec', shell, '/dev/null'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      const output = run.stdout;
      assert.match(output, /done after 6 steps/);
      // The bar's own control is `\r ESC[2K` (erase the line); nothing else may reach the terminal.
      const draws = output.replaceAll('\r\n', '\n').split(/\r\x1b\[2K|\n/);
      assert.equal(violation(draws.join('')), undefined, JSON.stringify(output));
      for (const payload of PAYLOADS) assert.ok(!output.includes(payload), `${payload} shown`);
      const bars = draws.filter((d) => /^\[[#.]+\] \d\/6 step/.test(d));
      assert.ok(bars.length >= 6, `want a bar per step and a redraw, got ${JSON.stringify(draws)}`);
      for (const d of draws) assert.ok(columnsWidth(d) <= 40, `wider than 40 columns: ${JSON.stringify(d)}`);
      // The second draw of step 3 is the redraw on resize: from there on, at most 30 columns.
      const redraw = bars.findIndex(
        (d, i) => / 3\/6 /.test(d) && bars.slice(0, i).some((e) => / 3\/6 /.test(e)),
      );
      assert.ok(redraw > 0, `want a redraw of step 3 after the resize, got ${JSON.stringify(bars)}`);
      for (const d of bars.slice(0, redraw))
        assert.ok(columnsWidth(d) > 30, `not using the 40 columns: ${d}`);
      for (const d of bars.slice(redraw))
        assert.ok(columnsWidth(d) <= 30, `wider than 30 after resize: ${d}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
