import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isErrorKind } from '../../../src/errors/index.js';
import { buildWindowsCommandLine, resolveWindowsCommand } from '../../../src/transport/stdio/index.js';
import { must } from '../../helpers/must.js';

/** The MSVC CRT (2008+) argument parser, which node.exe and most programs behind a .cmd shim use. */
function crtParse(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    for (; i < line.length; i++) {
      const ch = line[i];
      if (!quoted && (ch === ' ' || ch === '\t')) break;
      if (ch === '\\') {
        let n = 0;
        while (line[i] === '\\') {
          n++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(n / 2));
          if (n % 2 === 1) arg += '"';
          else i--; // let the quote be processed as a quote
        } else {
          arg += '\\'.repeat(n);
          i--;
        }
      } else if (ch === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i++;
        } else quoted = !quoted;
      } else arg += ch;
    }
    args.push(arg);
  }
  return args;
}

/** cmd.exe's view: every metacharacter must sit inside a quoted region, or it would split the command. */
function metacharOutsideQuotes(line: string): string | undefined {
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && '&|<>()^'.includes(ch)) return ch;
  }
  return quoted ? 'unbalanced quote' : undefined;
}

/** The line after `/s /c` with its outer quotes removed, as cmd.exe /s does. */
function innerLine(args: string[]): string {
  const last = must(args[args.length - 1], 'the line after /s /c');
  assert.ok(last.startsWith('"') && last.endsWith('"'));
  return last.slice(1, -1);
}

const SHIM = 'C:\\Program Files\\nodejs\\npx.cmd';

describe('buildWindowsCommandLine', () => {
  it('spawns a .exe directly and leaves quoting to libuv', () => {
    assert.deepEqual(buildWindowsCommandLine('C:\\bin\\server.exe', ['a b', '"q"']), {
      file: 'C:\\bin\\server.exe',
      args: ['a b', '"q"'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs a .cmd shim through cmd.exe /d /e:ON /v:OFF /s /c with verbatim arguments', () => {
    const plan = buildWindowsCommandLine(SHIM, ['-y', '@scope/server'], 'C:\\Windows\\system32\\cmd.exe');
    assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.equal(plan.windowsVerbatimArguments, true);
    assert.deepEqual(plan.args, ['/d', '/e:ON', '/v:OFF', '/s', '/c', `""${SHIM}" "-y" "@scope/server""`]);
  });

  const table: Array<[string, string]> = [
    ['', '""'],
    ['plain', '"plain"'],
    ['two words', '"two words"'],
    ['a&calc.exe', '"a&calc.exe"'],
    ['x" & calc.exe & "', '"x"" & calc.exe & """'],
    ['|<>()^', '"|<>()^"'],
    ['say "hi"', '"say ""hi"""'],
    ['C:\\dir\\', '"C:\\dir\\\\"'],
    ['a\\"b', '"a\\\\""b"'],
    ['a\\b', '"a\\b"'],
    ['wow!', '"wow!"'],
  ];
  for (const [arg, quoted] of table) {
    it(`quotes ${JSON.stringify(arg)} as ${quoted}`, () => {
      const inner = innerLine(buildWindowsCommandLine('C:\\x\\s.bat', [arg]).args);
      assert.equal(inner, `"C:\\x\\s.bat" ${quoted}`);
      assert.deepEqual(crtParse(inner).slice(1), [arg]);
    });
  }

  for (const bad of ['%PATH%', '50%', 'a\nb', 'a\rb', 'a\0b']) {
    it(`refuses the argument ${JSON.stringify(bad)} with a config error`, () => {
      assert.throws(
        () => buildWindowsCommandLine(SHIM, ['ok', bad]),
        (error: unknown) =>
          isErrorKind(error, 'config') && /argument 2/.test(error.message) && !error.message.includes(bad),
      );
    });
  }

  it('refuses a script path with a quote, a percent sign or a trailing backslash', () => {
    for (const file of ['C:\\a"b\\x.cmd', 'C:\\%TEMP%\\x.cmd']) {
      assert.throws(
        () => buildWindowsCommandLine(file, []),
        (e: unknown) => isErrorKind(e, 'config'),
      );
    }
  });

  it('for any safe arguments: no cmd metacharacter escapes the quotes, and the CRT reads them back unchanged', () => {
    const char = fc.constantFrom(...'ab \t"\\&|<>()^!=;,\'`~é😀'.split(''), 'x');
    const arg = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 6 }), (args) => {
        const inner = innerLine(buildWindowsCommandLine(SHIM, args).args);
        assert.equal(metacharOutsideQuotes(inner), undefined, inner);
        assert.deepEqual(crtParse(inner), [SHIM, ...args]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('resolveWindowsCommand', () => {
  const files = new Set([
    'C:\\nodejs\\npx.cmd',
    'C:\\nodejs\\node.exe',
    'C:\\tools\\npx.exe',
    'C:\\work\\bin\\srv.bat',
  ]);
  const exists = (file: string) => files.has(file);
  const env = { Path: 'C:\\nodejs;"C:\\tools"', PATHEXT: '.COM;.EXE;.BAT;.CMD' };

  it('finds a .cmd shim through PATH and PATHEXT (case-insensitive variable names)', () => {
    assert.equal(resolveWindowsCommand('npx', env, 'C:\\work', exists), 'C:\\nodejs\\npx.cmd');
  });

  it('honours PATH order before PATHEXT order', () => {
    assert.equal(
      resolveWindowsCommand('npx', { ...env, Path: 'C:\\tools;C:\\nodejs' }, 'C:\\work', exists),
      'C:\\tools\\npx.exe',
    );
  });

  it('uses a name that already has an extension as given', () => {
    assert.equal(resolveWindowsCommand('node.exe', env, 'C:\\work', exists), 'C:\\nodejs\\node.exe');
  });

  it('resolves a relative path against cwd and does not search cwd for bare names', () => {
    assert.equal(resolveWindowsCommand('bin\\srv', env, 'C:\\work', exists), 'C:\\work\\bin\\srv.bat');
    assert.equal(resolveWindowsCommand('srv', env, 'C:\\work\\bin', exists), undefined);
  });

  it('returns undefined when nothing matches', () => {
    assert.equal(resolveWindowsCommand('nope', env, 'C:\\work', exists), undefined);
  });
});
