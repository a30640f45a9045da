/**
 * `call`'s arguments by the tool's inputSchema (src/cli/tool-arguments.ts): the coercion rules, the usage
 * errors, hostile schemas (server data), and round-trips as property tests over generated schemas and values.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  ArgumentError,
  argumentSources,
  parseArgumentWords,
  type SourceText,
} from '../../src/cli/argument-words.js';
import { toolArguments } from '../../src/cli/tool-arguments.js';

/** The demo server's `typed` tool, as it lists it. */
const TYPED = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    dryRun: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object', properties: { depth: { type: 'integer' } } },
  },
  required: ['id'],
  additionalProperties: false,
};

function args(words: string[], schema: unknown, files: Record<string, string> = {}): Record<string, unknown> {
  const result = toolArguments(
    words,
    schema,
    (path): SourceText =>
      path in files ? { text: files[path] as string } : { problem: `the file "${path}" does not exist` },
  );
  if (result instanceof ArgumentError) assert.fail(`want arguments, got the problems: ${result.message}`);
  return result;
}

function problems(words: string[], schema: unknown, files: Record<string, string> = {}): readonly string[] {
  const result = toolArguments(
    words,
    schema,
    (path): SourceText =>
      path in files ? { text: files[path] as string } : { problem: `the file "${path}" does not exist` },
  );
  if (!(result instanceof ArgumentError))
    assert.fail(`want a usage error, got the arguments ${JSON.stringify(result)}`);
  return result.problems;
}

const oneProp = (schema: unknown) => ({ type: 'object', properties: { k: schema } });

describe('key=value by the schema', () => {
  test('a string stays a string, whatever it looks like', () => {
    for (const id of ['1712345.000100', '0012', '42', 'true', 'null', '[1]', '{"a":1}', '', ' x ', '-5'])
      assert.deepEqual(args([`id=${id}`], TYPED), { id });
  });

  test('integer, number, boolean and enum values are converted; arrays and objects come from JSON', () => {
    assert.deepEqual(
      args(
        [
          'id=1',
          'count=42',
          'ratio=0.5',
          'dryRun=false',
          'mode=safe',
          'tags=["a","b"]',
          'options={"depth":2}',
        ],
        TYPED,
      ),
      {
        id: '1',
        count: 42,
        ratio: 0.5,
        dryRun: false,
        mode: 'safe',
        tags: ['a', 'b'],
        options: { depth: 2 },
      },
    );
    assert.deepEqual(
      args(['id=x', 'count=-7', 'ratio=1e3', 'count2=1'], { ...TYPED, additionalProperties: true }),
      {
        id: 'x',
        count: -7,
        ratio: 1000,
        count2: '1',
      },
    );
    // An integer written as JSON may write it so (1.0, 1e2); surrounding whitespace is JSON's to ignore.
    assert.deepEqual(args(['id=x', 'count=1e2', 'ratio= 2 '], TYPED), { id: 'x', count: 100, ratio: 2 });
  });

  test('a value of the wrong type is a problem that names the key, the type and the value', () => {
    const cases: Array<[string, RegExp]> = [
      ['count=abc', /"count" must be integer \(got "abc"\)/],
      ['count=1.5', /"count" must be integer/],
      ['count=007', /"count" must be integer/],
      ['count=9007199254740993', /beyond ±2\^53/],
      ['ratio=0x10', /"ratio" must be number/],
      ['ratio=1e999', /"ratio" must be number/],
      ['dryRun=yes', /"dryRun" must be boolean/],
      ['mode=slow', /"mode" must be one of "fast", "safe" \(got "slow"\)/],
      ['tags=a,b', /"tags" must be a JSON array \(e\.g\. tags='\["a","b"\]'\)/],
      ['tags=[1]', /"tags\[0\]" must be string \(got integer\)/],
      ['options={"depth":"x"}', /"options\.depth" must be integer \(got string "x"\)/],
      ['options=[]', /"options" must be a JSON object/],
    ];
    for (const [word, want] of cases) {
      const got = problems(['id=1', word], TYPED);
      assert.equal(got.length, 1, `${word}: ${got.join('; ')}`);
      assert.match(got[0] ?? '', want, word);
    }
  });

  test('an unknown key, a missing required key and a key given twice are problems, all reported', () => {
    assert.deepEqual(problems(['txt=hi', 'count=1', 'count=2'], TYPED), [
      '"txt" is not a parameter of this tool',
      '"count" is given twice',
      'missing required parameter "id"',
    ]);
    assert.deepEqual(problems([], { type: 'object', properties: { a: {}, b: {} }, required: ['a', 'b'] }), [
      'missing required parameters "a", "b"',
    ]);
  });

  test('keys outside properties: refused unless additionalProperties allows them (a schema coerces them)', () => {
    const base = { type: 'object', properties: { a: { type: 'string' } } };
    assert.match(problems(['b=1'], base)[0] ?? '', /"b" is not a parameter/);
    assert.match(
      problems(['b=1'], { ...base, additionalProperties: false })[0] ?? '',
      /"b" is not a parameter/,
    );
    assert.deepEqual(args(['b=1'], { ...base, additionalProperties: true }), { b: '1' });
    assert.deepEqual(args(['b=1'], { ...base, additionalProperties: { type: 'integer' } }), { b: 1 });
    assert.deepEqual(args(['b=1'], { ...base, patternProperties: { '^b$': { type: 'integer' } } }), {
      b: '1',
    });
    // No properties at all: nothing is known, any key, values as strings.
    assert.deepEqual(args(['b=1', 'c:=2'], { type: 'object' }), { b: '1', c: 2 });
    assert.deepEqual(args(['b=1'], undefined), { b: '1' });
  });
});

describe('the other word forms', () => {
  test('key:=json forces JSON, and the JSON is still checked against the schema', () => {
    assert.deepEqual(args(['id:="0012"', 'count:=5', 'tags:=[]'], TYPED), { id: '0012', count: 5, tags: [] });
    assert.match(problems(['id:=5'], TYPED)[0] ?? '', /"id" must be string \(got integer\)/);
    assert.match(
      problems(['id=x', 'count:=five'], TYPED)[0] ?? '',
      /"count": the value after := is not valid JSON/,
    );
    assert.deepEqual(args(['k:={"deep":[1,null]}'], oneProp({})), { k: { deep: [1, null] } });
  });

  test('key=@path reads the file as the typed text; key:=@path as JSON; \\@ is a literal @', () => {
    const files = { 'id.txt': '1712345.000100\n', 'n.txt': '42\n', 'o.json': '{"depth":3}', 'x.txt': 'x' };
    assert.deepEqual(args(['id=@id.txt', 'count=@n.txt', 'options:=@o.json'], TYPED, files), {
      id: '1712345.000100\n',
      count: 42,
      options: { depth: 3 },
    });
    assert.deepEqual(args(['id=\\@alice'], TYPED), { id: '@alice' });
    assert.deepEqual(problems(['id=@missing.txt'], TYPED), ['the file "missing.txt" does not exist']);
    assert.match(problems(['id=@'], TYPED)[0] ?? '', /@ needs a file path/);
    assert.match(
      problems(['id=x', 'options:=@x.txt'], TYPED, files)[0] ?? '',
      /the file "x.txt" is not valid JSON/,
    );
  });

  test('a JSON object works alone or with key=value pairs; - and key=@- read stdin', () => {
    assert.deepEqual(args(['{"id":"7","count":1}'], TYPED), { id: '7', count: 1 });
    assert.deepEqual(args(['{"id":"7"}', 'count=2'], TYPED), { id: '7', count: 2 });
    assert.deepEqual(args(['-'], TYPED, { '-': '{"id":"from stdin"}' }), { id: 'from stdin' });
    assert.deepEqual(args(['id=@-'], TYPED, { '-': 'piped' }), { id: 'piped' });
    // The JSON object is checked like the pairs.
    assert.deepEqual(problems(['{"id":5,"txt":1}'], TYPED), [
      '"id" must be string (got integer)',
      '"txt" is not a parameter of this tool',
    ]);
    assert.deepEqual(problems(['{"id":"7"}', 'id=8'], TYPED), ['"id" is given twice']);
    assert.deepEqual(problems(['-'], TYPED, { '-': '[1]' }), [
      `stdin is not a JSON object (quote it: '{"key":"value"}')`,
    ]);
  });

  test('syntax is checked without a schema; sources are listed once each', () => {
    const check = (words: string[]) => {
      const parsed = parseArgumentWords(words);
      return parsed instanceof ArgumentError ? parsed.problems : [];
    };
    assert.match(check(['hello'])[0] ?? '', /"hello" is not key=value/);
    assert.match(check(['=x'])[0] ?? '', /no key before =/);
    assert.match(check([':=1'])[0] ?? '', /no key before =/);
    assert.match(check(['{not json'])[0] ?? '', /not valid JSON/);
    assert.match(check(['[1]'])[0] ?? '', /must be a JSON object/);
    assert.match(check(['{}', '-'])[0] ?? '', /at most one JSON object/);
    assert.match(check(['-', 'a=@-'])[0] ?? '', /stdin can be read once/);
    const parsed = parseArgumentWords(['a=@x', 'b:=@x', 'c=@-', 'd=1']);
    assert.ok(!(parsed instanceof ArgumentError));
    assert.deepEqual(argumentSources(parsed), ['x', '-']);
  });
});

describe('what the schema does not say', () => {
  test('unions try null, boolean, integer, number, array, object, and string last', () => {
    const nullableInt = oneProp({ anyOf: [{ type: 'integer' }, { type: 'null' }] });
    assert.deepEqual(args(['k=5'], nullableInt), { k: 5 });
    assert.deepEqual(args(['k=null'], nullableInt), { k: null });
    assert.match(problems(['k=x'], nullableInt)[0] ?? '', /"k" must be integer or null \(got "x"\)/);
    const stringOrInt = oneProp({ type: ['string', 'integer'] });
    assert.deepEqual(args(['k=42'], stringOrInt), { k: 42 });
    // With a string allowed, a number is taken only in the form JSON writes it back.
    for (const kept of ['0012', '1712345.000100', '1e3', '-0', '42 ', 'x'])
      assert.deepEqual(args([`k=${kept}`], stringOrInt), { k: kept });
    const stringOrArray = oneProp({
      oneOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'string' }],
    });
    assert.deepEqual(args(['k=[1,2]'], stringOrArray), { k: [1, 2] });
    assert.deepEqual(args(['k=["a"]'], stringOrArray), { k: '["a"]' });
    assert.deepEqual(args(['k=true'], oneProp({ type: ['boolean', 'string'] })), { k: true });
  });

  test('no type, an empty schema, true, or a type this code does not know: the value stays a string', () => {
    for (const schema of [
      {},
      true,
      { description: 'x' },
      { type: 'decimal' },
      { not: { type: 'string' } },
      7,
    ])
      assert.deepEqual(args(['k=12'], oneProp(schema)), { k: '12' });
    assert.deepEqual(args(['k=12'], oneProp({ anyOf: [{ type: 'integer' }, {}] })), { k: 12 });
    assert.deepEqual(args(['k=x'], oneProp({ anyOf: [{ type: 'integer' }, {}] })), { k: 'x' });
    assert.match(problems(['k=1'], oneProp(false))[0] ?? '', /accepts no value/);
  });

  test('enums: a string member as typed, other members as JSON; const is a one-member enum', () => {
    assert.deepEqual(args(['k=2'], oneProp({ enum: [1, 2, 'x'] })), { k: 2 });
    assert.deepEqual(args(['k=2'], oneProp({ enum: ['2', 2] })), { k: '2' });
    assert.deepEqual(args(['k=null'], oneProp({ enum: [null, 'a'] })), { k: null });
    assert.deepEqual(args(['k=on'], oneProp({ const: 'on' })), { k: 'on' });
    assert.match(problems(['k=off'], oneProp({ const: 'on' }))[0] ?? '', /must be one of "on"/);
  });

  test('$ref is followed inside the schema ($defs, definitions, allOf wrappers), never fetched', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { $ref: '#/$defs/Count' },
        m: { allOf: [{ $ref: '#/definitions/Mode' }], description: 'pydantic v1 style' },
        chain: { $ref: '#/$defs/A' },
        remote: { $ref: 'https://example.com/schema.json' },
        escaped: { $ref: '#/$defs/a~1b' },
        proto: { $ref: '#/__proto__' },
        self: { $ref: '#' },
      },
      $defs: {
        Count: { type: 'integer' },
        A: { $ref: '#/$defs/B' },
        B: { type: 'boolean' },
        'a/b': { type: 'number' },
      },
      definitions: { Mode: { enum: ['x', 'y'] } },
    };
    assert.deepEqual(args(['n=3', 'm=y', 'chain=true', 'remote=5', 'escaped=1.5', 'proto=1'], schema), {
      n: 3,
      m: 'y',
      chain: true,
      remote: '5',
      escaped: 1.5,
      proto: '1',
    });
    assert.match(problems(['m=z'], schema)[0] ?? '', /"m" must be one of "x", "y"/);
    assert.match(problems(['self=x'], schema)[0] ?? '', /"self" must be a JSON object/);
  });
});

describe('a hostile schema', () => {
  test('a $ref cycle, a long chain and deep nesting end within the bounds (the value stays a string)', () => {
    const cycle = {
      type: 'object',
      properties: { k: { $ref: '#/$defs/a' } },
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
    };
    assert.deepEqual(args(['k=1'], cycle), { k: '1' });
    let deep: unknown = { type: 'integer' };
    for (let i = 0; i < 100_000; i++) deep = { anyOf: [deep] };
    assert.deepEqual(args(['k=1'], oneProp(deep)), { k: '1' });
    let nested: unknown = { type: 'integer' };
    for (let i = 0; i < 10_000; i++) nested = { type: 'array', items: nested };
    const deepValue = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    assert.equal(JSON.stringify(args([`k=${deepValue}`], oneProp(nested))['k']), deepValue);
  });

  test('a wide schema: a million-member enum and a huge anyOf are looked at only up to the bounds', () => {
    const members = Array.from({ length: 1_000_000 }, (_, i) => `v${i}`);
    assert.deepEqual(args(['k=v5'], oneProp({ enum: members })), { k: 'v5' });
    assert.match(problems(['k=v999999'], oneProp({ enum: members }))[0] ?? '', /one of "v0", .*, …/);
    const anyOf = Array.from({ length: 100_000 }, () => ({ type: 'null' }));
    assert.deepEqual(args(['k=null'], oneProp({ anyOf: [...anyOf, { type: 'integer' }] })), { k: null });
  });

  test('a pattern is never evaluated (a catastrophic one costs nothing)', () => {
    const evil = { type: 'string', pattern: '^(a+)+$' };
    const value = `${'a'.repeat(50_000)}!`;
    assert.deepEqual(args([`k=${value}`], oneProp(evil)), { k: value });
  });

  test('schema text in a message is terminal-safe; "__proto__" stays a key, never a prototype', () => {
    const painted = oneProp({ enum: ['\u001b]0;owned\u0007a', '\u001b[2Jb\u202e', '\u009b31mc'] });
    const got = problems(['k=z'], painted)[0] ?? '';
    assert.doesNotMatch(got, /[\u001b\u0007\u009b\u202e]/);
    assert.match(got, /must be one of/);
    const open = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}}}');
    const made = args(['__proto__=1'], open);
    assert.equal(Object.getPrototypeOf(made), Object.prototype);
    assert.deepEqual(Object.keys(made), ['__proto__']);
    assert.equal(Object.getOwnPropertyDescriptor(made, '__proto__')?.value, 1);
    const fromJson = args(['{"__proto__":{"polluted":1}}'], { type: 'object' });
    assert.equal(Object.getPrototypeOf(fromJson), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.match(
      problems(['constructor=1', 'toString=2'], TYPED)[0] ?? '',
      /"constructor" is not a parameter/,
    );
  });

  test('a user key with control characters is shown sanitized', () => {
    const got = problems(['\u001b[31mkey=1'], TYPED)[0] ?? '';
    assert.doesNotMatch(got, /\u001b/);
  });
});

describe('round-trips (property tests)', () => {
  /** The word that sends `s` for key `k` by `key=value`: a leading @ is escaped as \@. */
  const word = (s: string) => `k=${s.startsWith('@') ? `\\${s}` : s}`;
  const plainString = fc.string({ unit: 'binary' }).filter((s) => !s.startsWith('\\@'));

  test('any string for a string property comes back unchanged (by key=value and by key:=json)', () => {
    fc.assert(
      fc.property(plainString, (s) => {
        assert.deepEqual(args([word(s)], oneProp({ type: 'string' })), { k: s });
        assert.deepEqual(args([`k:=${JSON.stringify(s)}`], oneProp({ type: 'string' })), { k: s });
      }),
    );
  });

  test('safe integers for an integer property, and finite numbers for a number property, become numbers', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        assert.deepEqual(args([`k=${n}`], oneProp({ type: 'integer' })), { k: n });
        assert.deepEqual(args([`k=${n}`], oneProp({ type: ['integer', 'string'] })), { k: n });
      }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        const got = args([`k=${d}`], oneProp({ type: 'number' }))['k'];
        assert.ok(got === d, `want ${d}, got ${String(got)}`);
      }),
    );
  });

  test('with a string allowed, a string that is not a number as JSON writes it stays a string', () => {
    fc.assert(
      fc.property(plainString, (s) => {
        const n = Number(s);
        fc.pre(!(s.trim() !== '' && String(n) === s) && !['true', 'false', 'null'].includes(s.trim()));
        assert.deepEqual(
          args([word(s)], oneProp({ anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string' }] })),
          { k: s },
        );
      }),
    );
  });

  test('booleans, enum members, and JSON arrays and objects come back as they were', () => {
    fc.assert(
      fc.property(fc.boolean(), (b) =>
        assert.deepEqual(args([`k=${b}`], oneProp({ type: 'boolean' })), { k: b }),
      ),
    );
    fc.assert(
      fc.property(fc.uniqueArray(plainString, { minLength: 1, maxLength: 20 }), fc.nat(), (members, i) => {
        const member = members[i % members.length] as string;
        assert.deepEqual(args([word(member)], oneProp({ enum: members })), { k: member });
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), (array, object) => {
        const a = JSON.stringify(array);
        const o = JSON.stringify(object);
        assert.deepEqual(args([`k=${a}`], oneProp({ type: 'array' })), { k: JSON.parse(a) });
        assert.deepEqual(args([`k=${o}`], oneProp({ type: 'object' })), { k: JSON.parse(o) });
      }),
    );
  });

  /** Schemas from a small grammar: types, type lists, enums, unions, $refs into $defs (some dangling). */
  const leaf = fc.oneof(
    fc
      .constantFrom('string', 'integer', 'number', 'boolean', 'null', 'array', 'object')
      .map((type) => ({ type })),
    fc
      .array(fc.constantFrom('string', 'integer', 'null', 'boolean'), { minLength: 1, maxLength: 3 })
      .map((type) => ({ type })),
    fc.array(fc.jsonValue(), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
    fc.constantFrom({ $ref: '#/$defs/a' }, { $ref: '#/$defs/missing' }, {}, true, false),
  );
  const schema = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.record({ anyOf: fc.array(tie('node'), { maxLength: 3 }) }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
    ),
  })).node;

  test('generated schemas and words: a result or a usage error, never a throw; strings typed stay strings', () => {
    fc.assert(
      fc.property(schema, schema, fc.array(plainString, { maxLength: 4 }), (prop, def, values) => {
        const input = { type: 'object', properties: { k: prop, s: { type: 'string' } }, $defs: { a: def } };
        for (const value of values) {
          const result = toolArguments([word(value), word(value).replace(/^k=/, 's=')], input);
          if (!(result instanceof ArgumentError)) assert.equal(result['s'], value);
          else
            assert.ok(
              result.problems.every((p) => p.startsWith('"k')),
              result.message,
            );
        }
      }),
    );
  });

  test('any JSON as the schema (server data) never makes it throw', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.string(), { maxLength: 4 }), (input, words) => {
        const result = toolArguments(words, input);
        assert.ok(result instanceof ArgumentError || typeof result === 'object');
      }),
    );
  });
});
