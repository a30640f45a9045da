/**
 * The one table of server config fields. Per field: which servers it applies to (`kind`), how its value is
 * checked and normalized (`check`), how an override's value meets a default's (`merge`), what of it is
 * secret (`secret`), and whether `Infinity` is plain data there (`infinity`). Every entry point reads it:
 * `normalizeConfig` (and so `connect()`), partial configs in settings (`checkPartialConfig`, whose
 * `PartialServerConfig` type has its keys), the worker's `open()` (`checkConfigData`), `mergeConfig` and
 * the CLI's masks. So a config is judged by the same rules wherever it enters, by construction.
 *
 * Every field may appear in a partial config (settings hold any part of a config), and every field is
 * plain JSON data, so all of them may cross into a worker thread.
 */
import { checkAuthToken, checkUserHeaders } from '../protocol/managed-headers.js';
import { checkEndpointUrl, checkProxyUrl } from '../protocol/url-policy.js';
import {
  argsOf,
  booleanOf,
  caOf,
  clientInfoOf,
  commandOf,
  countOf,
  cwdOf,
  deadlineMs,
  envOf,
  extensionsOf,
  fail,
  graceMsOf,
  positiveInt,
  protocolVersionOf,
  resultCharsOf,
  stderrOf,
  stringOf,
  stringRecord,
  typeOf,
} from './checks.js';
import { envFromOf } from './env-from.js';
import {
  type BaseServerConfig,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type HttpServerConfig,
  type StdioServerConfig,
} from './server-config.js';
import { toolFilterOf, toolPinsOf } from './tool-policy.js';

/** Which servers a field applies to. */
export type FieldKind = 'stdio' | 'http' | 'both';

/**
 * How `mergeConfig` combines an override's value with a default's: `replace` (the override's wins whole)
 * or `by-name` (objects of names, merged one level deep: the override's names win).
 */
export type MergeRule = 'replace' | 'by-name';

/**
 * What of a field's value is secret — masked by the CLI, never in a message: `none`; `values` (each value
 * of an object of names: `env`, `headers`); `whole` (the string); `url-password` (a URL's password).
 */
export type SecretRule = 'none' | 'values' | 'whole' | 'url-password';

/** The rules of one field. */
export interface FieldRule<Kind extends FieldKind = FieldKind> {
  readonly kind: Kind;
  /**
   * Checks the field's value (`undefined`: not set) and returns it normalized (or its default); throws a
   * `config` error naming the field. `config` is the whole (plain-data) config, for the few rules that
   * look at a second field (`envFrom` against `env`, `headers` against `authToken`).
   */
  readonly check: (value: unknown, config: Readonly<Record<string, unknown>>) => unknown;
  readonly merge: MergeRule;
  readonly secret: SecretRule;
  /** `Infinity` is plain data here: it means "no deadline" (elsewhere only finite numbers are data). */
  readonly infinity: boolean;
}

/** Every field a server config may have. */
export type ConfigFieldName = keyof StdioServerConfig | keyof HttpServerConfig;

type KindOf<K extends ConfigFieldName> = K extends keyof BaseServerConfig
  ? 'both'
  : K extends keyof StdioServerConfig
    ? 'stdio'
    : 'http';

const timeoutMsOf = deadlineMs('timeoutMs', DEFAULT_TIMEOUT_MS);
const plain = { merge: 'replace', secret: 'none', infinity: false } as const;

/**
 * The table. Its keys are exactly the fields of `StdioServerConfig` and `HttpServerConfig`, each with the
 * kind its interface gives it (checked by the compiler). Order is the order problems are reported in.
 */
export const CONFIG_FIELDS = {
  timeoutMs: { ...plain, kind: 'both', infinity: true, check: timeoutMsOf },
  connectTimeoutMs: {
    ...plain,
    kind: 'both',
    infinity: true,
    // Default: 30 s, or `timeoutMs` when that is smaller.
    check: (value, config) =>
      deadlineMs(
        'connectTimeoutMs',
        Math.min(DEFAULT_CONNECT_TIMEOUT_MS, timeoutMsOf(config['timeoutMs'])),
      )(value),
  },
  maxMessageBytes: {
    ...plain,
    kind: 'both',
    check: positiveInt('maxMessageBytes', DEFAULT_MAX_MESSAGE_BYTES, 2 ** 31 - 1),
  },
  maxResultChars: { ...plain, kind: 'both', check: (value) => resultCharsOf(value) },
  protocolVersion: { ...plain, kind: 'both', check: protocolVersionOf },
  clientInfo: { ...plain, kind: 'both', check: clientInfoOf },
  tools: { ...plain, kind: 'both', check: toolFilterOf },
  pin: { ...plain, kind: 'both', check: toolPinsOf },
  extensions: { ...plain, kind: 'both', check: extensionsOf },
  command: { ...plain, kind: 'stdio', check: commandOf },
  args: { ...plain, kind: 'stdio', check: argsOf },
  cwd: { ...plain, kind: 'stdio', check: cwdOf },
  env: { ...plain, kind: 'stdio', merge: 'by-name', secret: 'values', check: envOf },
  envFrom: {
    ...plain,
    kind: 'stdio',
    merge: 'by-name',
    check: (value, config) => envFromOf(value, namesOf(config['env'])),
  },
  stderr: { ...plain, kind: 'stdio', check: stderrOf },
  isolate: { ...plain, kind: 'stdio', check: booleanOf('isolate') },
  graceMs: { ...plain, kind: 'stdio', check: graceMsOf },
  maxSkippedLines: { ...plain, kind: 'stdio', check: countOf('maxSkippedLines') },
  maxSkippedBytes: { ...plain, kind: 'stdio', check: countOf('maxSkippedBytes') },
  maxQueuedBytes: { ...plain, kind: 'stdio', check: countOf('maxQueuedBytes') },
  url: {
    ...plain,
    kind: 'http',
    check: (value) => {
      if (value === undefined) return undefined;
      if (typeof value !== 'string') fail(`url must be a string (got ${typeOf(value)})`);
      return checkEndpointUrl(value);
    },
  },
  authToken: { ...plain, kind: 'http', secret: 'whole', check: stringOf('authToken', checkAuthToken) },
  headers: {
    ...plain,
    kind: 'http',
    merge: 'by-name',
    secret: 'values',
    check: (value, config) => {
      const headers = stringRecord(value, 'headers');
      checkUserHeaders(headers, { hasAuth: config['authToken'] !== undefined });
      return headers;
    },
  },
  ca: { ...plain, kind: 'http', check: caOf },
  proxy: { ...plain, kind: 'http', secret: 'url-password', check: stringOf('proxy', checkProxyUrl) },
  useEnvProxy: { ...plain, kind: 'http', check: booleanOf('useEnvProxy') },
} as const satisfies { readonly [K in ConfigFieldName]: FieldRule<KindOf<K>> };

/** Each field's value after its check. */
export type CheckedFields = {
  -readonly [K in ConfigFieldName]: ReturnType<(typeof CONFIG_FIELDS)[K]['check']>;
};

/** The field that says which transport a config is for. */
export const TRANSPORT_FIELD = { stdio: 'command', http: 'url' } as const;

/** The rules of `key`, or undefined when a server config has no such field (also `constructor`, `__proto__`). */
export function fieldRule(key: string): FieldRule | undefined {
  return Object.hasOwn(CONFIG_FIELDS, key) ? CONFIG_FIELDS[key as ConfigFieldName] : undefined;
}

/** The fields that apply to a server of `kind` (`both`: a connection given in options). */
export function fieldsFor(kind: FieldKind): ConfigFieldName[] {
  return (Object.keys(CONFIG_FIELDS) as ConfigFieldName[]).filter((name) => {
    const field = CONFIG_FIELDS[name].kind;
    return field === 'both' || field === kind;
  });
}

/** The paths (as plain-data reasons spell them: `config.timeoutMs`) where `Infinity` is data. */
export const INFINITY_AT: ReadonlySet<string> = new Set(
  (Object.keys(CONFIG_FIELDS) as ConfigFieldName[])
    .filter((name) => CONFIG_FIELDS[name].infinity)
    .map((name) => `config.${name}`),
);

/** The names of `env` when it is an object (what `envFrom` may not repeat); checking it is `env`'s job. */
function namesOf(env: unknown): Readonly<Record<string, unknown>> {
  return typeof env === 'object' && env !== null && !Array.isArray(env)
    ? (env as Record<string, unknown>)
    : {};
}
