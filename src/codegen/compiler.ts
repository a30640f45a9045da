/**
 * The JSON-Schema-to-TypeScript step, by `json-schema-to-typescript` (an optional peer dependency: ~25 MB
 * with prettier and lodash, so it is loaded only by `autos-mcp types`, never installed with autos-mcp).
 * It only ever sees a schema from `safeSchema` (no `$ref`, no keyword of its own), and its reference
 * resolver is switched off all the same: nothing is fetched and no file is read.
 */
import { McpError } from '../errors/index.js';

/** Turns one reduced schema into the declaration of `name` (`export interface …` or `export type …`). */
export type SchemaCompiler = (schema: Record<string, unknown>, name: string) => Promise<string>;

interface Library {
  compile(schema: object, name: string, options: Record<string, unknown>): Promise<string>;
}

const LIBRARY = 'json-schema-to-typescript';

/** The one sentence that says what to install. */
export const MISSING_LIBRARY_MESSAGE =
  'autos-mcp types needs json-schema-to-typescript, which is not installed: run npm install --save-dev json-schema-to-typescript@16';

/**
 * The compiler, with the library loaded now; a `config` McpError naming what to install when it is
 * missing. The specifier is a variable so the bundle never includes the library.
 */
export async function loadCompiler(): Promise<SchemaCompiler> {
  const specifier: string = LIBRARY;
  let library: Library;
  try {
    const loaded = (await import(specifier)) as Partial<Library> & { default?: Partial<Library> };
    const compile = loaded.compile ?? loaded.default?.compile;
    if (typeof compile !== 'function') throw new Error('no compile export');
    library = { compile };
  } catch (error) {
    throw new McpError('config', MISSING_LIBRARY_MESSAGE, { cause: error });
  }
  return (schema, name) => library.compile(schema, name, OPTIONS);
}

const OPTIONS: Record<string, unknown> = {
  bannerComment: '',
  // Laid out by prettier (a dependency of the library): two-space indents, as the rest of the file.
  format: true,
  style: {
    bracketSpacing: true,
    printWidth: 110,
    semi: true,
    singleQuote: true,
    tabWidth: 2,
    useTabs: false,
  },
  // A schema that does not say otherwise takes no other keys: a misspelt parameter is a compile error.
  additionalProperties: false,
  unknownAny: true,
  strictIndexSignatures: true,
  // Tuples from minItems/maxItems would let a schema ask for a type of any size.
  ignoreMinAndMaxItems: true,
  declareExternallyReferenced: false,
  enableConstEnums: false,
  inferStringEnumKeysFromValues: false,
  // There is no `$ref` left to resolve; if one were, it must go nowhere.
  $refOptions: {
    resolve: { external: false, file: false, http: false },
    dereference: { circular: 'ignore' },
  },
};
