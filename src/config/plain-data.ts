/**
 * Checks that a config is plain JSON data: objects, arrays, strings, finite numbers, booleans and null.
 * Functions, class instances, symbols, getters and cycles are refused so that a config can be saved,
 * sent to a worker thread or logged without surprises. Handlers go in options, never in the config.
 *
 * `snapshotPlainData` also copies the data it checked, reading every property once through its
 * descriptor: a getter is never run, and a Proxy cannot show the check one value and the validator
 * another. Reasons name a path, never a value; a key that is not a plain name is shown only up to its
 * first unusual character (an env name `TOKEN=abc` would otherwise carry a value).
 */

/** The outcome of `snapshotPlainData`: a plain copy, or the first reason the value is not plain data. */
export type PlainDataSnapshot = { ok: true; value: unknown } | { ok: false; reason: string };

/** Options of `snapshotPlainData`. */
export interface PlainDataOptions {
  /** Paths (as reasons spell them, e.g. `config.timeoutMs`) where `Infinity` is allowed. */
  infinityAt?: ReadonlySet<string>;
}

const MAX_DEPTH = 32;
/** Longest array walked (a Proxy may claim any length). */
const MAX_ITEMS = 1_000_000;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A key as it appears in a path: `.name` for a plain name (letters, digits, `_`, `.`, `-`, at most 64),
 * else `["<its plain prefix>…"]`, so that the part of a key after `=`, `:`, a space, NUL or any other
 * unusual character never reaches a message.
 */
export function pathKey(key: string): string {
  if (NAME.test(key)) return `.${key}`;
  const prefix = /^[A-Za-z0-9_.-]{0,32}/.exec(key)?.[0] ?? '';
  return `[${JSON.stringify(prefix)}…]`;
}

/** A key quoted for a message: `"name"` for a plain name, else its plain prefix as `"prefix"…`. */
export function quoteKey(key: string): string {
  if (NAME.test(key)) return JSON.stringify(key);
  return `${JSON.stringify(/^[A-Za-z0-9_.-]{0,32}/.exec(key)?.[0] ?? '')}…`;
}

/** The first reason `value` is not plain data, as a path and a reason, or undefined when it is. */
export function findNonPlainData(value: unknown, path = 'config'): string | undefined {
  const snapshot = snapshotPlainData(value, path);
  return snapshot.ok ? undefined : snapshot.reason;
}

/**
 * Checks `value` like `findNonPlainData` and returns a plain copy of it (objects with
 * `Object.prototype`, keys whose value is `undefined` left out). May throw what a hostile Proxy throws;
 * callers turn that into their own error.
 */
export function snapshotPlainData(
  value: unknown,
  path = 'config',
  options: PlainDataOptions = {},
): PlainDataSnapshot {
  const infinityAt = options.infinityAt ?? new Set<string>();
  const seen = new Set<object>();
  let reason: string | undefined;

  const copy = (item: unknown, at: string, depth: number): unknown => {
    if (depth > MAX_DEPTH) {
      reason = `${at} is nested deeper than ${MAX_DEPTH} levels`;
      return undefined;
    }
    if (item === null) return null;
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return item;
      case 'number':
        if (Number.isFinite(item) || (item === Number.POSITIVE_INFINITY && infinityAt.has(at))) return item;
        reason = `${at} is not a finite number`;
        return undefined;
      case 'object':
        break;
      case 'undefined':
        reason = `${at} is undefined or a hole in an array, not JSON data`;
        return undefined;
      default:
        reason = `${at} is a ${typeof item}; a config holds plain JSON data only (functions go in options)`;
        return undefined;
    }
    const object = item as object;
    if (seen.has(object)) {
      reason = `${at} is a circular reference`;
      return undefined;
    }
    seen.add(object);
    try {
      if (Array.isArray(object)) {
        const length = Object.getOwnPropertyDescriptor(object, 'length')?.value;
        if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0 || length > MAX_ITEMS) {
          reason = `${at} is an array without a usable length (at most ${MAX_ITEMS} items)`;
          return undefined;
        }
        const out: unknown[] = [];
        for (let i = 0; i < length; i++) {
          const slot = data(object, String(i), `${at}[${i}]`);
          if (reason !== undefined) return undefined;
          out.push(copy(slot, `${at}[${i}]`, depth + 1));
          if (reason !== undefined) return undefined;
        }
        return out;
      }
      const proto = Object.getPrototypeOf(object);
      if (proto !== Object.prototype && proto !== null) {
        const name = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value?.name;
        reason = `${at} is a ${typeof name === 'string' && NAME.test(name) ? name : 'class instance'}; a config holds plain JSON data only`;
        return undefined;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(object)) {
        const here = `${at}${pathKey(key)}`;
        const field = data(object, key, here);
        if (reason !== undefined) return undefined;
        // `undefined` stands for "not set", as TypeScript callers write it.
        if (field === undefined) continue;
        const copied = copy(field, here, depth + 1);
        if (reason !== undefined) return undefined;
        Object.defineProperty(out, key, {
          value: copied,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      seen.delete(object);
    }
  };

  /** The value of an own data property, without running a getter; sets `reason` for an accessor. */
  const data = (object: object, key: string, at: string): unknown => {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined) return undefined;
    if (descriptor.get || descriptor.set) {
      reason = `${at} is an accessor, not data`;
      return undefined;
    }
    return descriptor.value;
  };

  const out = copy(value, path, 0);
  return reason === undefined ? { ok: true, value: out } : { ok: false, reason };
}
