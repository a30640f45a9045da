/**
 * The one plain-data copier: what a config (at `connect()`, in settings, at the worker's `open()`) or a
 * worker call's arguments may hold. Only JSON-compatible data passes: objects (of any realm, so a
 * `node:vm` context's `{}` is fine, and with a null prototype), arrays, strings, finite numbers, booleans
 * and `null`. Functions, class instances (Date, Map, Buffer, MessagePort and other handles), proxies,
 * symbols (as values or keys), accessors, bigints, sparse arrays and cycles are refused, so a config can be
 * saved, sent to a worker thread or logged without surprises. Handlers go in options, never in data.
 *
 * It copies as it checks, reading every property once through its descriptor: a getter never runs, and
 * what is handed on is exactly what was checked. Reasons name a path, never a value; a key that is not a
 * plain name is shown only up to its first unusual character (an env name `TOKEN=abc` would otherwise
 * carry a value). A key whose value is `undefined` means "not set" and is left out.
 */
import { isProxy } from 'node:util/types';

/** The outcome of `snapshotPlainData`: a plain copy, or the first reason the value is not plain data. */
export type PlainDataSnapshot =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** Options of `snapshotPlainData`. */
export interface PlainDataOptions {
  /** Paths (as reasons spell them, e.g. `config.timeoutMs`) where `Infinity` is allowed. */
  readonly infinityAt?: ReadonlySet<string>;
}

const MAX_DEPTH = 64;
/** Longest array walked (a hostile object may claim any length). */
const MAX_ITEMS = 1_000_000;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const CONSTRUCTOR_NAME = /^[A-Za-z0-9_$]{1,64}$/;
const GAPS_HINT = 'use nullGaps(array) or explicit nulls to keep the gaps';
const NOT_PLAIN = 'not plain JSON data (functions go in options)';

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
 * Checks `value` and returns a plain copy of it made in this realm (see the file header). Never throws:
 * what a hostile object throws while being read becomes a reason that quotes none of it.
 */
export function snapshotPlainData(
  value: unknown,
  path = 'config',
  options: PlainDataOptions = {},
): PlainDataSnapshot {
  const infinityAt = options.infinityAt ?? new Set<string>();
  const seen = new Set<object>();
  let reason: string | undefined;
  const fail = (why: string): undefined => {
    reason ??= why;
    return undefined;
  };

  const copy = (item: unknown, at: string, depth: number): unknown => {
    if (depth > MAX_DEPTH) return fail(`${at} is nested deeper than ${MAX_DEPTH} levels`);
    if (item === null) return null;
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return item;
      case 'number':
        if (Number.isFinite(item) || (item === Number.POSITIVE_INFINITY && infinityAt.has(at))) return item;
        return fail(`${at} is not a finite number`);
      case 'object':
        break;
      case 'undefined':
        return fail(`${at} is undefined, not JSON data`);
      default:
        return fail(`${at} is a ${typeof item}, ${NOT_PLAIN}`);
    }
    const object = item as object;
    if (isProxy(object)) return fail(`${at} is a Proxy, ${NOT_PLAIN}`);
    if (seen.has(object)) return fail(`${at} is a circular reference`);
    seen.add(object);
    try {
      return Array.isArray(object) ? copyArray(object, at, depth) : copyObject(object, at, depth);
    } finally {
      seen.delete(object);
    }
  };

  const copyArray = (array: unknown[], at: string, depth: number): unknown => {
    // An Array of any realm has an Array.prototype (itself an array) as prototype; a subclass does not.
    if (!Array.isArray(Object.getPrototypeOf(array)))
      return fail(`${at} is an Array subclass, not plain data`);
    const length = Object.getOwnPropertyDescriptor(array, 'length')?.value;
    if (typeof length !== 'number' || length > MAX_ITEMS)
      return fail(`${at} has more than ${MAX_ITEMS} items`);
    if (Object.getOwnPropertySymbols(array).length > 0) return fail(`${at} has symbol keys`);
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const here = `${at}[${i}]`;
      const descriptor = Object.getOwnPropertyDescriptor(array, i);
      if (descriptor === undefined) return fail(`${here} is a hole in a sparse array; ${GAPS_HINT}`);
      if (descriptor.get || descriptor.set) return fail(`${here} is an accessor, not data`);
      if (descriptor.value === undefined) return fail(`${here} is undefined; ${GAPS_HINT}`);
      out[i] = copy(descriptor.value, here, depth + 1);
      if (reason !== undefined) return undefined;
    }
    if (Object.keys(array).length !== length) return fail(`${at} has keys besides its items`);
    return out;
  };

  const copyObject = (object: object, at: string, depth: number): unknown => {
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== null && !isObjectPrototype(proto)) {
      const name = constructorName(proto);
      return fail(`${at} is ${name === undefined ? 'a class instance' : `a ${name}`}, ${NOT_PLAIN}`);
    }
    if (Object.getOwnPropertySymbols(object).length > 0) return fail(`${at} has symbol keys`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      const here = `${at}${pathKey(key)}`;
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (descriptor === undefined) continue;
      if (descriptor.get || descriptor.set) return fail(`${here} is an accessor, not data`);
      // `undefined` stands for "not set", as TypeScript callers write it.
      if (descriptor.value === undefined) continue;
      const copied = copy(descriptor.value, here, depth + 1);
      if (reason !== undefined) return undefined;
      // Defined, not assigned: a `__proto__` key stays an ordinary key.
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };

  try {
    const out = copy(value, path, 0);
    return reason === undefined ? { ok: true, value: out } : { ok: false, reason };
  } catch {
    return { ok: false, reason: `${path} could not be read as plain data (a Proxy or getter threw)` };
  }
}

/** True for `Object.prototype` of this or any other realm (a `node:vm` context's `{}`). */
function isObjectPrototype(proto: unknown): boolean {
  if (proto === Object.prototype) return true;
  if (typeof proto !== 'object' || proto === null || Object.getPrototypeOf(proto) !== null) return false;
  const ctor: unknown = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
  return (
    typeof ctor === 'function' &&
    ctor.name === 'Object' &&
    Object.getOwnPropertyDescriptor(ctor, 'prototype')?.value === proto
  );
}

function constructorName(proto: unknown): string | undefined {
  try {
    const ctor: unknown =
      typeof proto === 'object' && proto !== null
        ? Object.getOwnPropertyDescriptor(proto, 'constructor')?.value
        : undefined;
    const name = typeof ctor === 'function' ? ctor.name : undefined;
    return typeof name === 'string' && CONSTRUCTOR_NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}
