/**
 * JSON data written and compared at any depth. `JSON.stringify` recurses and throws `RangeError` on a
 * value nested some thousands of levels deep, which `JSON.parse` (iterative in V8) accepts from a server:
 * `jsonText` then writes it with an explicit stack, the same text. `sameJson` compares two JSON values
 * deeply (object keys in any order) with an explicit stack too. Data as `JSON.parse` gives it.
 */

/** A container being written: its opening is out, its members are written one by one. */
interface Frame {
  array: readonly unknown[] | undefined;
  record: Record<string, unknown> | undefined;
  keys: readonly string[];
  at: number;
  written: number;
  close: string;
}

/** `JSON.stringify(value)`, also for data nested too deep for it. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return deepJsonText(value);
  }
}

function deepJsonText(value: unknown): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const enter = (item: unknown): void => {
    if (Array.isArray(item)) {
      parts.push('[');
      stack.push({ array: item, record: undefined, keys: [], at: 0, written: 0, close: ']' });
    } else if (typeof item === 'object' && item !== null) {
      parts.push('{');
      const record = item as Record<string, unknown>;
      stack.push({ array: undefined, record, keys: Object.keys(record), at: 0, written: 0, close: '}' });
    } else parts.push(JSON.stringify(item) ?? 'null');
  };
  enter(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.array === undefined ? frame.keys.length : frame.array.length;
    if (frame.at >= length) {
      parts.push(frame.close);
      stack.pop();
      continue;
    }
    const index = frame.at++;
    if (frame.array !== undefined) {
      if (frame.written++ > 0) parts.push(',');
      const item = frame.array[index];
      enter(item === undefined || typeof item === 'function' ? null : item);
      continue;
    }
    const key = frame.keys[index] as string;
    const item = (frame.record as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    if (frame.written++ > 0) parts.push(',');
    parts.push(`${JSON.stringify(key)}:`);
    enter(item);
  }
  return parts.join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `a` and `b` are the same JSON value (object keys in any order). Iterative: any depth. */
export function sameJson(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop() as [unknown, unknown];
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i]]);
    } else if (isRecord(x)) {
      if (!isRecord(y)) return false;
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const key of keys) {
        if (!Object.hasOwn(y, key)) return false;
        pending.push([x[key], y[key]]);
      }
    } else if (!Object.is(x, y) && !(x === 0 && y === 0)) return false;
  }
  return true;
}
