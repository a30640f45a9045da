/**
 * The plain-data boundary of `autos-mcp/worker`: what a config or a tool's arguments may hold to cross into
 * the worker thread. Only JSON-compatible data passes: objects (of any realm, so a `node:vm` context's
 * `{}` is fine), arrays, strings, finite numbers, booleans and `null`. Functions, class instances (Date,
 * Map, Buffer, MessagePort and other handles), proxies, symbols (as values or keys), accessors, bigints
 * and cycles are refused before anything is sent, with a reason that names a path and never a value.
 *
 * Explicit `null`, `''`, `0`, `false` and `-0` cross unchanged, and so does the length of an array that
 * holds explicit nulls. A sparse array (a hole, or an `undefined` slot) is refused, never compacted:
 * `nullGaps(array)` is the documented way to say "a gap here", turning every hole into an explicit
 * `null` and keeping the length. A key whose value is `undefined` means "not set" and is left out.
 *
 * The check copies as it goes (reading each property once, through its descriptor: a getter never runs),
 * so the value posted to the thread is exactly the value that was checked.
 */
import { types } from 'node:util';
import { pathKey } from '../config/plain-data.js';

/** The outcome of `toPlainData`: a checked copy, or the first reason the value is not plain data. */
export type PlainResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** Options of `toPlainData`. */
export interface PlainOptions {
  /** Paths (as reasons spell them, e.g. `config.timeoutMs`) where `Infinity` is allowed. */
  readonly infinityAt?: ReadonlySet<string>;
}

const MAX_DEPTH = 64;
/** Longest array walked. */
const MAX_ITEMS = 1_000_000;
const NAME = /^[A-Za-z0-9_$]{1,64}$/;
const GAPS_HINT = 'use nullGaps(array) or explicit nulls to keep the gaps';

/**
 * A dense copy of `array` in which every hole and every `undefined` slot is an explicit `null`: the way to
 * send an array with gaps across the boundary (its `length` is kept). Other items are not changed.
 */
export function nullGaps<T>(array: ArrayLike<T>): Array<T | null> {
  const out = new Array<T | null>(array.length);
  for (let i = 0; i < array.length; i++) out[i] = array[i] ?? null;
  return out;
}

/** Checks `value` and returns a plain copy of it made in this realm (see the file header). Never throws. */
export function toPlainData(value: unknown, path: string, options: PlainOptions = {}): PlainResult {
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
        return fail(`${at} is a ${typeof item}; only plain JSON data crosses into the worker`);
    }
    const object = item as object;
    if (types.isProxy(object)) return fail(`${at} is a Proxy; only plain JSON data crosses into the worker`);
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
      return fail(
        `${at} is ${name === undefined ? 'a class instance' : `a ${name}`}; only plain JSON data crosses into the worker`,
      );
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
      // defineProperty, so a `__proto__` key stays an ordinary key.
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
    return { ok: false, reason: `${path} could not be read (a hostile object?)` };
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
    return typeof name === 'string' && NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}
