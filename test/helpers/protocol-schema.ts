/**
 * Checks a value against one definition of the official MCP schema of a revision (the published
 * `schema.json` of each revision, kept in test/fixtures/schemas/), with `@cfworker/json-schema`. Returns
 * the problems (empty: valid).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@cfworker/json-schema';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/schemas');
const cache = new Map<string, Record<string, unknown>>();

function schemaOf(revision: '2025-11-25' | '2026-07-28'): Record<string, unknown> {
  let schema = cache.get(revision);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(path.join(DIR, `schema-${revision}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    cache.set(revision, schema);
  }
  return schema;
}

/** The problems of `value` as a `definition` of `revision` (e.g. `ClientCapabilities`). */
export function schemaProblems(
  revision: '2025-11-25' | '2026-07-28',
  definition: string,
  value: unknown,
): string[] {
  const schema = schemaOf(revision);
  const defs = (schema['$defs'] ?? schema['definitions']) as Record<string, unknown>;
  const key = schema['$defs'] === undefined ? 'definitions' : '$defs';
  const validator = new Validator({ $ref: `#/${key}/${definition}`, [key]: defs } as never, '2020-12', false);
  const result = validator.validate(value);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}
