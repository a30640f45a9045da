/**
 * The size of JSON data as `JSON.stringify` would write it, in characters (UTF-16 code units), measured
 * without writing it and stopping as soon as it passes a limit: a result budget costs O(budget + values
 * seen), not O(result), however large or deeply nested the result is (the walk keeps its own stack). Also
 * the longest prefix of a string whose JSON form fits a size, never splitting a surrogate pair. The data
 * is what `JSON.parse` gives (no `toJSON`, no cycles); `undefined` object members are skipped and array
 * items written `null`, as `JSON.stringify` does.
 */

/** The characters `JSON.stringify` writes for the code unit at `i` of `text` (2 for a whole pair), and its width. */
function unitCost(text: string, i: number): [cost: number, width: number] {
  const c = text.charCodeAt(i);
  if (c === 0x22 || c === 0x5c) return [2, 1];
  if (c < 0x20) return [c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6, 1];
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    // A pair is written as it is; a lone surrogate as `\udXXX` (well-formed JSON.stringify, ES2019).
    return next >= 0xdc00 && next <= 0xdfff ? [2, 2] : [6, 1];
  }
  if (c >= 0xdc00 && c <= 0xdfff) return [6, 1];
  return [1, 1];
}

/** The length of `JSON.stringify(text)` (quotes included), or `Infinity` once it passes `limit`. */
export function stringSizeWithin(text: string, limit: number): number {
  // Escapes only lengthen: a string longer than the limit is over it without a scan.
  if (text.length + 2 > limit) return Number.POSITIVE_INFINITY;
  let size = 2;
  for (let i = 0; i < text.length; ) {
    const [cost, width] = unitCost(text, i);
    size += cost;
    i += width;
    if (size > limit) return Number.POSITIVE_INFINITY;
  }
  return size;
}

/**
 * The longest prefix of `text` whose JSON string form, without its quotes, is at most `room` characters.
 * A surrogate pair is kept whole or left out whole. Costs O(room).
 */
export function jsonPrefix(text: string, room: number): string {
  let size = 0;
  let i = 0;
  while (i < text.length) {
    const [cost, width] = unitCost(text, i);
    if (size + cost > room) break;
    size += cost;
    i += width;
  }
  return text.slice(0, i);
}

function scalarSize(value: unknown, limit: number): number {
  if (typeof value === 'string') return stringSizeWithin(value, limit);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (typeof value === 'bigint') throw new TypeError('a BigInt is not JSON data');
  return 4; // null (and, as an array item, undefined or a function)
}

/** A container being walked: its members still to measure. */
interface Frame {
  array: readonly unknown[] | undefined;
  record: Record<string, unknown> | undefined;
  keys: readonly string[];
  at: number;
  written: number;
}

/**
 * The length of `JSON.stringify(value)`, or `Infinity` as soon as it passes `limit`. Iterative: any depth.
 * `value` itself must not be `undefined`.
 */
export function jsonSizeWithin(value: unknown, limit: number): number {
  let size = 0;
  const stack: Frame[] = [];
  const enter = (item: unknown): void => {
    if (Array.isArray(item)) {
      size += 2; // [ ]
      stack.push({ array: item, record: undefined, keys: [], at: 0, written: 0 });
    } else if (typeof item === 'object' && item !== null) {
      size += 2; // { }
      const record = item as Record<string, unknown>;
      stack.push({ array: undefined, record, keys: Object.keys(record), at: 0, written: 0 });
    } else size += scalarSize(item, limit - size);
  };
  enter(value);
  while (stack.length > 0 && size <= limit) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.array === undefined ? frame.keys.length : frame.array.length;
    if (frame.at >= length) {
      stack.pop();
      continue;
    }
    const index = frame.at++;
    if (frame.array !== undefined) {
      const item = frame.array[index];
      if (frame.written++ > 0) size += 1; // ,
      enter(item === undefined || typeof item === 'function' ? null : item);
      continue;
    }
    const key = frame.keys[index] as string;
    const item = (frame.record as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    if (frame.written++ > 0) size += 1; // ,
    size += stringSizeWithin(key, limit - size) + 1; // "key":
    enter(item);
  }
  return size > limit ? Number.POSITIVE_INFINITY : size;
}
