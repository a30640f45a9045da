/**
 * What `tools` and `call <tool> --help` print for a parameter whose values are objects: one level of their
 * fields (`array of object {path: string, mode?: "a" | "b"}`), also through a local `$ref` as pydantic and
 * zod emit them; and the call line in the form the user typed (`NAME.TOOL` for a configured server).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatToolHelp, formatToolList } from '../../src/cli/tool-help.js';
import type { Tool } from '../../src/index.js';

const EDIT_FILE: Tool = {
  name: 'edit_file',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            oldText: { type: 'string' },
            newText: { type: 'string' },
            mode: { enum: ['exact', 'fuzzy'] },
            where: { type: 'object', properties: { line: { type: 'integer' } } },
          },
          required: ['oldText', 'newText'],
        },
      },
      options: { type: 'object', properties: { dryRun: { type: 'boolean' } } },
    },
    required: ['path', 'edits'],
  },
};

test('tools: an array of objects shows one level of the item fields, `?` marking the optional ones', () => {
  const out = formatToolList([EDIT_FILE], []);
  assert.match(
    out,
    /^ {4}- edits: array of object \{oldText: string, newText: string, mode\?: "exact" \| "fuzzy", where\?: object\}, required$/m,
  );
  assert.match(out, /^ {4}- options: object \{dryRun\?: boolean\}, optional$/m);
  assert.match(out, /^ {4}- path: string, required$/m);
});

test('call --help: the same, and the example call still has {} for an object and [] for an array', () => {
  const out = formatToolHelp(EDIT_FILE);
  assert.match(out, /^ {2}edits: array of object \{oldText: string, newText: string, .*\}, required$/m);
  assert.match(out, /^Call it: autos-mcp call edit_file '\{"path":"…","edits":\[\]\}' <target>$/m);
});

test('items behind a local $ref (pydantic $defs) are followed; a cycle or a remote $ref is not', () => {
  const tool: Tool = {
    name: 'move',
    inputSchema: {
      type: 'object',
      $defs: {
        Step: { $ref: '#/$defs/Move' },
        Move: { type: 'object', properties: { from: { type: 'string' }, to: { $ref: '#/$defs/Move' } } },
        Loop: { $ref: '#/$defs/Loop' },
      },
      properties: {
        steps: { type: 'array', items: { $ref: '#/$defs/Step' } },
        loop: { $ref: '#/$defs/Loop' },
        remote: { $ref: 'https://example.com/schema.json' },
      },
    },
  };
  const out = formatToolList([tool], []);
  assert.match(out, /^ {4}- steps: array of object \{from\?: string, to\?: object\}, optional$/m);
  assert.match(out, /^ {4}- loop: any, optional$/m);
  assert.match(out, /^ {4}- remote: any, optional$/m);
});

test('at most 8 fields are shown, then …; field names are made terminal-safe', () => {
  const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, { type: 'string' }]));
  properties['\u001b[31mred'] = { type: 'string' };
  const tool: Tool = {
    name: 'wide',
    inputSchema: {
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object', properties } } },
    },
  };
  const out = formatToolList([tool], []);
  assert.match(out, /rows: array of object \{f0\?: string, .*f7\?: string, …\}, optional$/m);
  assert.doesNotMatch(out, /f8/);
  assert.doesNotMatch(out, /\u001b/);
});

test('the call line of --help echoes a configured server as NAME.TOOL, with no <target>', () => {
  const out = formatToolHelp(EDIT_FILE, 'files.edit_file');
  assert.match(out, /^Call it: autos-mcp call files\.edit_file '\{"path":"…","edits":\[\]\}'$/m);
});
