/**
 * The import-rule checker on small in-memory file sets, apart from src/: each kind of import is seen, each
 * kind of rule catches a planted violation and lets a clean set pass, and the rule table is read as the
 * page writes it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkImports,
  describe,
  folderOf,
  importsOf,
  layersFromPage,
  resolveImport,
  rulesFromPage,
} from './import-rules.js';

const PAGE = `
intro, not a rule: | \`cli\` | only \`errors\` | no |

<!-- import-rules -->
| folders | may import | why |
|---|---|---|
| \`protocol\`, \`errors\` | only \`protocol\`, \`errors\` | leaves |
| \`transport\` | anything but \`settings\`, \`client\` | bytes only |
| every folder but \`cli\` | anything but \`cli\` | the top |
| every folder | no cycle between folders | one module in all but name |
<!-- /import-rules -->
`;

const RULES = rulesFromPage(PAGE);

function check(files: Record<string, string>): string[] {
  return checkImports(new Map(Object.entries(files)), RULES).map(describe);
}

test('importsOf sees every way a module names another, and nothing in strings or comments', () => {
  const source = [
    "import { a } from './a.js';",
    "import type { B } from '../b/b.js';",
    "import './side-effect.js';",
    "export { c } from './c.js';",
    "export * as d from './d.js';",
    "type E = typeof import('../e/e.js');",
    "const f = await import('../f/index.js');",
    "import { createRequire } from 'node:module';",
    'const load = createRequire(import.meta.url);',
    "load('../g/g.js');",
    "load.resolve('../h/h.js');",
    "createRequire(import.meta.url)('../i/i.js');",
    "const j = require('./j.js');",
    'const text = "import x from \'./not-an-import.js\'";',
    "// import y from './commented.js';",
    'const name = "./computed.js"; await import(name);',
  ].join('\n');
  assert.deepEqual(
    importsOf(source).map((site) => `${site.line}:${site.specifier}`),
    [
      '1:./a.js',
      '2:../b/b.js',
      '3:./side-effect.js',
      '4:./c.js',
      '5:./d.js',
      '6:../e/e.js',
      '7:../f/index.js',
      '8:node:module',
      '10:../g/g.js',
      '11:../h/h.js',
      '12:../i/i.js',
      '13:./j.js',
    ],
  );
});

test('resolveImport maps .js to .ts and a folder to its index.ts; a package or builtin is not in src/', () => {
  const files = new Set(['src/a/x.ts', 'src/b/index.ts', 'src/b/y.ts']);
  assert.equal(resolveImport('src/a/x.ts', '../b/y.js', files), 'src/b/y.ts');
  assert.equal(resolveImport('src/a/x.ts', '../b', files), 'src/b/index.ts');
  assert.equal(resolveImport('src/a/x.ts', 'undici', files), undefined);
  assert.equal(resolveImport('src/a/x.ts', 'node:fs', files), undefined);
  assert.equal(resolveImport('src/a/x.ts', '../../package.json', files), undefined);
});

test('folderOf: the first folder under src/, and a file in src/ itself by its name', () => {
  assert.equal(folderOf('src/transport/http/sse.ts'), 'transport');
  assert.equal(folderOf('src/version.ts'), 'version');
  assert.throws(() => folderOf('test/x.ts'), /not a file in src/);
});

test('a planted import a "not" rule forbids is reported as "x imports y: rule"', () => {
  assert.deepEqual(
    check({
      'src/transport/open.ts':
        "import { load } from '../settings/load.js';\nimport { z } from '../protocol/z.js';",
      'src/settings/load.ts': 'export const load = 1;',
      'src/protocol/z.ts': 'export const z = 1;',
    }),
    ['src/transport/open.ts imports src/settings/load.ts: transport must not import settings'],
  );
});

test('an "only" rule reports any folder outside its list, a type-only or dynamic import included', () => {
  assert.deepEqual(
    check({
      'src/protocol/a.ts':
        "import type { C } from '../client/c.js';\nexport const e = import('../errors/e.js');",
      'src/errors/e.ts': "export const v = await import('../version.js');",
      'src/client/c.ts': 'export type C = 1;',
      'src/version.ts': 'export const VERSION = "1";',
    }),
    [
      'src/errors/e.ts imports src/version.ts: errors may import only protocol, errors',
      'src/protocol/a.ts imports src/client/c.ts: protocol may import only protocol, errors',
    ],
  );
});

test('"every folder but cli" binds every other folder and leaves cli free', () => {
  assert.deepEqual(
    check({
      'src/cli/main.ts': "import '../cli/help.js';\nimport '../client/api.js';",
      'src/cli/help.ts': '',
      'src/client/api.ts': "import { HELP } from '../cli/help.js';",
    }),
    [
      'src/client/api.ts imports src/cli/help.ts: client must not import cli',
      'src/cli/main.ts imports src/client/api.ts: no import cycle between folders (cli → client → cli)',
      'src/client/api.ts imports src/cli/help.ts: no import cycle between folders (client → cli → client)',
    ],
  );
});

test('a cycle between folders is reported on each import that lies on it, with the folders it runs through', () => {
  assert.deepEqual(
    check({
      'src/config/a.ts': "import '../transport/b.js';",
      'src/transport/b.ts': "import '../session/c.js';",
      'src/session/c.ts': "import '../config/a.js';",
      'src/session/d.ts': "import '../store/e.js';",
      'src/store/e.ts': '',
    }),
    [
      'src/config/a.ts imports src/transport/b.ts: no import cycle between folders (config → transport → session → config)',
      'src/session/c.ts imports src/config/a.ts: no import cycle between folders (session → config → transport → session)',
      'src/transport/b.ts imports src/session/c.ts: no import cycle between folders (transport → session → config → transport)',
    ],
  );
});

test('a set that keeps every rule passes', () => {
  assert.deepEqual(
    check({
      'src/cli/main.ts': "import '../client/api.js';\nimport './help.js';",
      'src/cli/help.ts': '',
      'src/client/api.ts': "import '../transport/open.js';\nimport '../errors/e.js';",
      'src/transport/open.ts': "import { z } from '../protocol/z.js';\nimport '../errors/e.js';",
      'src/protocol/z.ts': "import '../errors/e.js';\nexport const z = 1;",
      'src/errors/e.ts': "import 'node:util';",
    }),
    [],
  );
});

test('the rule table is read from between its markers, and a row it cannot read is an error', () => {
  assert.deepEqual(
    RULES.map((rule) => rule.kind),
    ['only', 'not', 'not', 'no-cycle'],
  );
  assert.throws(() => rulesFromPage('no table here'), /no <!-- import-rules -->/);
  const bad = PAGE.replace('anything but `settings`', 'mostly not `settings`');
  assert.throws(() => rulesFromPage(bad), /neither "only …", "anything but …" nor "no cycle …"/);
});

const PICTURE = `
<!-- layers -->
\`\`\`text
top, not cli      cli   index.ts (the root)
middle            client    settings
bottom            errors
                  version.ts
\`\`\`
<!-- /layers -->
`;

test('the layer picture: an import into the same row or above is reported; down any number of rows passes', () => {
  const units = new Set(['cli', 'index', 'client', 'settings', 'errors', 'version']);
  const layers = layersFromPage(PICTURE, units);
  assert.ok(layers.kind === 'layers');
  assert.deepEqual(Object.fromEntries(layers.rows), {
    cli: 0,
    index: 0,
    client: 1,
    settings: 1,
    errors: 2,
    version: 3,
  });
  const found = checkImports(
    new Map(
      Object.entries({
        'src/cli/main.ts': "import '../version.js';\nimport '../client/a.js';",
        'src/client/a.ts': "import '../settings/b.js';\nimport '../errors/e.js';",
        'src/settings/b.ts': '',
        'src/errors/e.ts': "import '../client/a.js';",
        'src/version.ts': '',
      }),
    ),
    [layers],
  ).map(describe);
  assert.deepEqual(found, [
    'src/client/a.ts imports src/settings/b.ts: client may import only from the rows below its own in the layer picture (settings is in the same row)',
    'src/errors/e.ts imports src/client/a.ts: errors may import only from the rows below its own in the layer picture (client is above)',
  ]);
  assert.throws(() => layersFromPage('no picture', units), /no <!-- layers -->/);
  assert.throws(
    () =>
      layersFromPage(PICTURE.replace('bottom            errors', 'bottom            errors client'), units),
    /client is in two rows/,
  );
});
